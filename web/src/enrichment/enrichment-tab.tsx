import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorMessage } from '../ui/error-message';
import { type ModelChoice, choose, enrichRequest, groupByType, typeLabel } from './enrichment-plan';
import { ModelChoices } from './model-choices';
import { useEnrichDataset, useEnrichmentContext, useEnrichmentModels } from './use-enrichment';

const CONTEXT_WORDS = { NEW: 'Nothing applied yet', IN_PROGRESS: 'Enrichment in progress', COMPLETED: 'Enriched', FAILED: 'The enrichment failed' } as const;

/** A dataset's Enrichment tab: what was applied, and a new enriched copy with the chosen models. */
export function EnrichmentTab() {
  const { datasetId = '' } = useParams();
  const models = useEnrichmentModels(datasetId);
  const context = useEnrichmentContext(datasetId);
  const enrich = useEnrichDataset(datasetId);
  const [chosen, setChosen] = useState<ModelChoice>({});

  const applied: ModelChoice = context.data?.dataset_enrichment_models.enrichment_models ?? {};
  const request = enrichRequest(chosen);
  const nameOf = (id: string) => models.data?.find((m) => m.id === id)?.name ?? id;
  return (
    <section className="stack" aria-labelledby="enrichment-heading">
      <h2 id="enrichment-heading" style={{ margin: 0 }}>Enrichment</h2>
      <p className="muted" style={{ margin: 0 }}>
        Enriching makes a new copy of this dataset with the chosen models applied; this dataset stays as it is (read only meanwhile).
      </p>
      {context.error && <ErrorMessage error={context.error} />}
      {context.data && (
        <div className="card">
          <h3 style={{ marginTop: 0 }}>Applied to this dataset</h3>
          <p style={{ margin: 0 }}>{CONTEXT_WORDS[context.data.status]}</p>
          {/* Names come from the models list: until it answers, ids would flash in their place. */}
          {Object.keys(applied).length > 0 && !models.isPending && (
            <ul aria-label="Applied models">
              {Object.entries(applied).map(([type, id]) => (
                <li key={type}>
                  {typeLabel(type)}: {nameOf(id ?? '')}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {models.error && <ErrorMessage error={models.error} />}
      {models.data && (
        <form
          className="stack"
          aria-label="Models to apply"
          onSubmit={(event) => {
            event.preventDefault();
            if (request) enrich.mutate(request);
          }}
        >
          {groupByType(models.data).map((group) => (
            <ModelChoices
              key={group.type}
              type={group.type}
              models={group.models}
              chosen={chosen}
              applied={applied}
              onChoose={(id) => setChosen(choose(models.data, chosen, applied, group.type, id))}
            />
          ))}
          <div className="row">
            <button type="submit" className="primary" disabled={!request || enrich.isPending || enrich.isSuccess}>
              Start enrichment
            </button>
            {!request && <span className="muted">Choose at least one model.</span>}
          </div>
        </form>
      )}
      {enrich.error && <ErrorMessage error={enrich.error} />}
      {enrich.data && (
        <p role="status" className="card">
          Enriched copy being made: <Link to={`/datasets/${enrich.data.dataset_id}`}>open the enriched copy</Link>, whose page follows it until it is ready.
        </p>
      )}
    </section>
  );
}
