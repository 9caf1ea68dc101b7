/** Finding the dataset a clone made: the API answers a clone with 202 and no body. */

export interface ListedDataset {
  id: string;
  display_name: string;
  source_dataset_id: string | null;
}

/** The name the API gives a clone: "<source name> (cloned)". */
export const cloneName = (sourceName: string) => `${sourceName} (cloned)`;

/**
 * The clone of `source` listed `after` the clone was asked for that was not listed `before` it (newest first, as
 * the API lists datasets); undefined when it is not there.
 */
export function findNewClone<T extends ListedDataset>(before: ListedDataset[], after: T[], source: { id: string; name: string }): T | undefined {
  const known = new Set(before.map((d) => d.id));
  return after.find((d) => !known.has(d.id) && d.source_dataset_id === source.id && d.display_name === cloneName(source.name));
}
