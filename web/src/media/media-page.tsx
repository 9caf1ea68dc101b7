import { Link, useParams } from 'react-router';
import { ErrorMessage } from '../ui/error-message';
import { MediaAnnotations } from './media-annotations';
import { useMedia } from './media-api';
import { MediaFacts } from './media-facts';
import { MediaPreview } from './media-preview';
import { SimilarMedia } from './similar-media';

/** One media item of a dataset: preview, facts, annotations and the media like it. */
export function MediaPage() {
  const { datasetId = '', mediaId = '' } = useParams();
  const media = useMedia(datasetId, mediaId);
  const back = (
    <p>
      <Link to={`/datasets/${datasetId}`}>← Back to the grid</Link>
    </p>
  );
  if (media.error)
    return (
      <section>
        <ErrorMessage error={media.error} />
        {back}
      </section>
    );
  if (!media.data) return <p className="muted">Loading the media…</p>;
  const m = media.data;
  return (
    <section aria-labelledby="media-title" className="stack">
      {back}
      <h2 id="media-title" className="media-title">
        {m.file_name}
      </h2>
      <div className="media-layout">
        <MediaPreview media={m} />
        <div className="stack">
          {/* Keyed by the item, so the label field starts from each item's own label. */}
          <MediaAnnotations key={`${m.media_id}:${m.label ?? ''}`} media={m} />
          <MediaFacts media={m} />
        </div>
      </div>
      <SimilarMedia datasetId={datasetId} mediaId={mediaId} isVideo={m.media_type === 'VIDEO'} />
    </section>
  );
}
