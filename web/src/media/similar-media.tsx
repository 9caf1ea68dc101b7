import { ErrorMessage } from '../ui/error-message';
import { useDuplicates, useNeighbours } from './media-api';
import { MediaThumb, mediaPagePath } from './media-thumb';

function ThumbList(props: { datasetId: string; labelledBy: string; media: Array<{ media_id: string; file_name: string; media_thumb_uri: string | null }> }) {
  return (
    <ul className="thumb-row" aria-labelledby={props.labelledBy}>
      {props.media.map((m) => (
        <li key={m.media_id}>
          <MediaThumb to={mediaPagePath(props.datasetId, m.media_id)} src={m.media_thumb_uri} alt={m.file_name} caption={m.file_name} />
        </li>
      ))}
    </ul>
  );
}

/** The media item's near-duplicates (its duplicate group) and its nearest neighbours by similarity. */
export function SimilarMedia({ datasetId, mediaId, isVideo }: { datasetId: string; mediaId: string; isVideo: boolean }) {
  const duplicates = useDuplicates(datasetId, mediaId);
  const neighbours = useNeighbours(datasetId, mediaId, !isVideo);
  return (
    <>
      <section aria-labelledby="media-duplicates">
        <h3 id="media-duplicates">Near-duplicates</h3>
        {duplicates.ids.error && <ErrorMessage error={duplicates.ids.error} />}
        {duplicates.ids.data && duplicates.total === 0 && <p className="muted">No near-duplicates.</p>}
        {duplicates.media.length > 0 && <ThumbList datasetId={datasetId} labelledBy="media-duplicates" media={duplicates.media} />}
        {duplicates.total > duplicates.media.length && duplicates.media.length > 0 && (
          <p className="muted">and {duplicates.total - duplicates.media.length} more</p>
        )}
      </section>
      <section aria-labelledby="media-neighbours">
        <h3 id="media-neighbours">Nearest neighbours</h3>
        {isVideo && <p className="muted">A video is compared through its frames: open a frame to see its neighbours.</p>}
        {neighbours.error && <ErrorMessage error={neighbours.error} />}
        {neighbours.data?.length === 0 && <p className="muted">No other media to compare with.</p>}
        {neighbours.data && neighbours.data.length > 0 && <ThumbList datasetId={datasetId} labelledBy="media-neighbours" media={neighbours.data} />}
      </section>
    </>
  );
}
