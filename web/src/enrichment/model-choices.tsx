import { type EnrichmentModel, type ModelChoice, blockedReason, typeLabel } from './enrichment-plan';

/** Why a model's dependencies are met, or what it still needs, in words. */
function dependencyNote(model: EnrichmentModel, chosen: ModelChoice, applied: ModelChoice): string | null {
  const deps = model.dependencies ?? [];
  if (deps.length === 0 || model.status !== 'Active') return null;
  const reason = blockedReason(model, chosen, applied);
  if (reason) return `${reason[0]?.toUpperCase()}${reason.slice(1)}: choose it above.`;
  return deps.map((d) => (applied[d] ? `Uses the ${typeLabel(d)} already applied.` : `Runs after ${typeLabel(d)}.`)).join(' ');
}

/** One enrichment type: its models as radio buttons (Coming Soon and unmet dependencies disabled) and None. */
export function ModelChoices(props: {
  type: string;
  models: EnrichmentModel[];
  chosen: ModelChoice;
  applied: ModelChoice;
  onChoose: (modelId: string | undefined) => void;
}) {
  const { type, models, chosen, applied } = props;
  const name = `model-${type}`;
  return (
    <fieldset className="card enrichment-type">
      <legend>{typeLabel(type)}</legend>
      {applied[type] && <p className="muted" style={{ margin: 0 }}>Already applied: {models.find((m) => m.id === applied[type])?.name ?? applied[type]}</p>}
      <label className="inline">
        <input type="radio" name={name} checked={!chosen[type]} onChange={() => props.onChoose(undefined)} />
        None
      </label>
      {models.map((model) => {
        const blocked = blockedReason(model, chosen, applied);
        const note = dependencyNote(model, chosen, applied);
        const id = `model-${model.id}`;
        return (
          <div key={model.id} className="enrichment-model">
            <label className="inline">
              <input
                type="radio"
                name={name}
                value={model.id}
                checked={chosen[type] === model.id}
                disabled={blocked !== null}
                aria-describedby={`${id}-about`}
                onChange={() => props.onChoose(model.id)}
              />
              <span>
                {model.name}
                {model.status !== 'Active' && <span className="status"> {model.status}</span>}
              </span>
            </label>
            <div id={`${id}-about`} className="muted enrichment-about">
              {note && <p className={blocked ? 'enrichment-needs' : undefined}>{note}</p>}
              <p>{model.description}</p>
              <p>{model.vendor}</p>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
