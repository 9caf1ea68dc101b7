import { useState } from 'react';
import { type FieldCondition, type FieldOp, type FieldType, MAX_FIELD_CONDITIONS, OP_WORDS, describeCondition, fieldValue, opsFor } from './explore-query';

interface Props {
  fields: Array<{ name: string; type: FieldType }>;
  conditions: FieldCondition[];
  onChange: (conditions: FieldCondition[]) => void;
}

const INPUT_TYPE: Record<FieldType, string> = { number: 'number', datetime: 'datetime-local', string: 'text', string_list: 'text', boolean: 'text' };

/** Conditions on the dataset's custom fields, each typed as its field (the schema says which type). */
export function FieldConditions({ fields, conditions, onChange }: Props) {
  const [name, setName] = useState('');
  const [op, setOp] = useState<FieldOp>('eq');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (fields.length === 0) return null;
  const field = fields.find((f) => f.name === name) ?? fields[0]!;
  const ops = opsFor(field.type);
  const currentOp = ops.includes(op) ? op : ops[0]!;
  const yesNo = currentOp === 'exists' || field.type === 'boolean';

  function add() {
    try {
      onChange([...conditions, { field: field.name, op: currentOp, value: fieldValue(field.type, currentOp, yesNo && value === '' ? 'true' : value) }]);
      setValue('');
      setProblem(null);
    } catch (err) {
      setProblem((err as Error).message);
    }
  }

  return (
    <fieldset className="stack">
      <legend>Custom fields</legend>
      {conditions.length > 0 && (
        <ul className="chips">
          {conditions.map((c, i) => (
            <li key={`${describeCondition(c)}-${i}`} className="chip">
              {describeCondition(c)}{' '}
              <button type="button" aria-label={`Remove ${describeCondition(c)}`} onClick={() => onChange(conditions.filter((_, j) => j !== i))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <label>
          Field
          <select value={field.name} onChange={(event) => setName(event.target.value)}>
            {fields.map((f) => (
              <option key={f.name} value={f.name}>
                {f.name} ({f.type})
              </option>
            ))}
          </select>
        </label>
        <label>
          Condition
          <select value={currentOp} onChange={(event) => setOp(event.target.value as FieldOp)}>
            {ops.map((o) => (
              <option key={o} value={o}>
                {OP_WORDS[o]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Value
          {yesNo ? (
            <select value={value || 'true'} onChange={(event) => setValue(event.target.value)}>
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          ) : (
            <input type={INPUT_TYPE[field.type]} step={field.type === 'number' ? 'any' : undefined} value={value} onChange={(event) => setValue(event.target.value)} />
          )}
        </label>
        <button type="button" disabled={conditions.length >= MAX_FIELD_CONDITIONS} onClick={add}>
          Add condition
        </button>
      </div>
      {problem && <p className="error">{problem}</p>}
    </fieldset>
  );
}
