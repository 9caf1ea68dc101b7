import { api, unwrap } from '../api/client';

/** What an edit applies to: media by id, every member of clusters, or every media an Explore query matches. */
export type EditTarget = { media_ids: string[] } | { cluster_ids: string[] } | { query: { vql: string } };
export type Edit = { kind: 'add-tag' | 'remove-tag'; tag: string } | { kind: 'label'; label: string | null };

/** Sends one tag or label edit (each makes a new version of the dataset); answers how many media it changed. */
export async function sendEdit(datasetId: string, edit: Edit, target: EditTarget): Promise<number> {
  const params = { path: { dataset_id: datasetId } };
  const result =
    edit.kind === 'label'
      ? await unwrap(api.PUT('/api/v1/dataset/{dataset_id}/media/label', { params, body: { label: edit.label, ...target } }))
      : edit.kind === 'add-tag'
        ? await unwrap(api.POST('/api/v1/dataset/{dataset_id}/media/tags', { params, body: { tags: [edit.tag], ...target } }))
        : await unwrap(api.POST('/api/v1/dataset/{dataset_id}/media/tags/remove', { params, body: { tags: [edit.tag], ...target } }));
  return result.changed;
}
