import { ErrorMessage } from '../ui/error-message';
import { useDuplicates, useNeighbours } from './media-api';
import { MediaThumb, mediaPagePath } from './media-thumb';

/** The media item's near-duplicates (its duplicate group) and its nearest neighbours by similarity. */
export function SimilarMedia({ datasetId, mediaId }: { datasetId: string; mediaId: string }) {
  const duplicates = useDuplicates(datasetId, mediaId);
  const neighbours = useNeighbours(datasetId, mediaId);
  return (
    <>
      <section aria-labelledby="media-duplicates">
        <h3 id="media-duplicates">Near-duplicates</h3>
        {duplicates.ids.error && <ErrorMessage error={duplicates.ids.error} />}
        {duplicates.ids.data && duplicates.total === 0 && <p className="muted">No near-duplicates.</p>}
        {duplicates.media.length > 0 && (
          <ul className="thumb-row" aria-labelledby="media-duplicates">
            {duplicates.media.map((m) => (
              <li key={m.media_id}>
                <MediaThumb to={mediaPagePath(datasetId, m.media_id)} src={m.media_thumb_uri} alt={m.file_name} caption={m.file_name} />
              </li>
            ))}
          </ul>
        )}
        {duplicates.total > duplicates.media.length && duplicates.media.length > 0 && (
          <p className="muted">and {duplicates.total - duplicates.media.length} more</p>
        )}
      </section>
      <section aria-labelledby="media-neighbours">
        <h3 id="media-neighbours">Nearest neighbours</h3>
        {neighbours.error && <ErrorMessage error={neighbours.error} />}
        {neighbours.data?.length === 0 && <p className="muted">No other media to compare with.</p>}
        {neighbours.data && neighbours.data.length > 0 && (
          <ol className="thumb-row" aria-labelledby="media-neighbours">
            {neighbours.data.map((p) => (
              <li key={p.media_id}>
                <MediaThumb to={mediaPagePath(datasetId, p.media_id)} src={p.media_thumb_uri} alt={p.file_name} caption={p.file_name} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
