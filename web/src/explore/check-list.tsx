interface Props {
  legend: string;
  options: Array<{ value: string; label: string }>;
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
  empty: string;
}

/** A fieldset of checkboxes over a few values (issues, labels, tags). */
export function CheckList({ legend, options, chosen, onChange, empty }: Props) {
  const toggle = (value: string, on: boolean) => onChange(on ? [...chosen, value] : chosen.filter((v) => v !== value));
  return (
    <fieldset className="check-list">
      <legend>{legend}</legend>
      {options.length === 0 && <p className="muted">{empty}</p>}
      {options.map((o) => (
        <label key={o.value} className="inline">
          <input type="checkbox" checked={chosen.includes(o.value)} onChange={(event) => toggle(o.value, event.target.checked)} />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}
