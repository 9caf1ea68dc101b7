import { type EntityType, type ExploreState, MAX_THRESHOLD, type SortBy, effectiveSort, withChange } from './explore-query';

interface Props {
  state: ExploreState;
  onChange: (next: ExploreState) => void;
}

const ENTITIES: Array<{ value: EntityType; label: string }> = [
  { value: 'IMAGES', label: 'Images' },
  { value: 'OBJECTS', label: 'Objects' },
];

/** What the grid lists and how: images or objects, the cluster granularity, the order. */
export function ExploreToolbar({ state, onChange }: Props) {
  const sort = effectiveSort(state);
  return (
    <div className="row explore-toolbar">
      <div className="row" role="group" aria-label="Show">
        {ENTITIES.map((e) => (
          <button key={e.value} type="button" aria-pressed={state.entity === e.value} onClick={() => onChange(withChange(state, { entity: e.value }))}>
            {e.label}
          </button>
        ))}
      </div>
      <label className="inline">
        Granularity
        <input
          type="range"
          min={0}
          max={MAX_THRESHOLD}
          step={1}
          value={state.threshold}
          aria-valuetext={`${state.threshold}: ${state.threshold === 0 ? 'near-duplicates' : state.threshold === MAX_THRESHOLD ? 'broad similarity' : 'in between'}`}
          onChange={(event) => onChange(withChange(state, { threshold: Number(event.target.value) }))}
        />
        <output>{state.threshold}</output>
      </label>
      <label className="inline">
        Sort by
        <select value={sort} onChange={(event) => onChange(withChange(state, { sort: event.target.value as SortBy }))}>
          {state.anchor && <option value="relevance">Relevance</option>}
          <option value="size">Size</option>
          <option value="uniqueness">Uniqueness</option>
        </select>
      </label>
    </div>
  );
}
