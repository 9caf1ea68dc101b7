import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import { CheckList } from './check-list';
import { FieldConditions } from './field-conditions';
import { type Filters, ISSUES, ISSUE_WORDS, emptyFilters, hasFilters } from './explore-query';
import { useFieldSchema, useLabels, useTags } from './use-explore';

interface Props {
  datasetId: string;
  /** The filters in force (the URL's); the form edits a copy until "Apply filters". */
  filters: Filters;
  onApply: (filters: Filters) => void;
}

/** Checkboxes for the most used labels and tags; past that, the file name and caption search narrow the grid. */
const MAX_CHOICES = 50;

export function FiltersPanel({ datasetId, filters, onApply }: Props) {
  const [draft, setDraft] = useState(filters);
  const tags = useTags(datasetId);
  const labels = useLabels(datasetId);
  const fields = useFieldSchema(datasetId);
  const set = (change: Partial<Filters>) => setDraft((d) => ({ ...d, ...change }));

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  const failed = [labels.error, tags.error, fields.error].find((e) => e !== null);
  return (
    <form className="stack filters-panel" aria-label="Filters" onSubmit={submit}>
      {failed && <ErrorMessage error={failed} />}
      <CheckList legend="Issues" options={ISSUES.map((i) => ({ value: i, label: ISSUE_WORDS[i] }))} chosen={draft.issues} onChange={(v) => set({ issues: v as Filters['issues'] })} empty="" />
      <fieldset className="row">
        <legend>Uniqueness</legend>
        <label>
          Minimum uniqueness
          <input type="number" inputMode="decimal" step="any" value={draft.minUniqueness} onChange={(e) => set({ minUniqueness: e.target.value })} />
        </label>
        <label>
          Maximum uniqueness
          <input type="number" inputMode="decimal" step="any" value={draft.maxUniqueness} onChange={(e) => set({ maxUniqueness: e.target.value })} />
        </label>
      </fieldset>
      <CheckList
        legend="Labels"
        options={(labels.data?.labels ?? []).slice(0, MAX_CHOICES).map((l) => ({ value: l.label, label: `${l.label} (${l.count})` }))}
        chosen={draft.labels}
        onChange={(v) => set({ labels: v })}
        empty="No labels yet."
      />
      <CheckList
        legend="Tags"
        options={(tags.data?.tags ?? []).slice(0, MAX_CHOICES).map((t) => ({ value: t.tag, label: `${t.tag} (${t.count})` }))}
        chosen={draft.tags}
        onChange={(v) => set({ tags: v })}
        empty="No tags yet."
      />
      <label>
        Caption text
        <input type="search" value={draft.caption} onChange={(e) => set({ caption: e.target.value })} />
      </label>
      <label>
        File name
        <input type="search" value={draft.fileName} onChange={(e) => set({ fileName: e.target.value })} />
      </label>
      {draft.mapPolygon && (
        <fieldset className="row">
          <legend>Map</legend>
          <span>Inside the shape drawn on the map ({draft.mapPolygon.length} corners)</span>
          <button type="button" onClick={() => set({ mapPolygon: null })}>
            Remove the map shape
          </button>
        </fieldset>
      )}
      <FieldConditions fields={fields.data ?? []} conditions={draft.fields} onChange={(v) => set({ fields: v })} />
      <div className="row">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button type="button" disabled={!hasFilters(filters) && !hasFilters(draft)} onClick={() => {
            setDraft(emptyFilters());
            onApply(emptyFilters());
          }}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
