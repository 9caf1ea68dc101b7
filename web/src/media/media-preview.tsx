import type { Media } from './media-api';
import { formatTimestamp } from './media-format';
import { MediaThumb, mediaPagePath, thumbnailPath } from './media-thumb';
import { boxPosition } from './object-boxes';

/** The preview of a media item with its detected objects drawn over it; a video shows its frames on a strip. */
export function MediaPreview({ media }: { media: Media }) {
  const size = media.width && media.height ? { width: media.width, height: media.height } : null;
  // The stage keeps the media's own aspect ratio, so boxes placed in percentages of it land on the picture at any size.
  const stageStyle = size ? { aspectRatio: `${size.width} / ${size.height}`, width: `min(100%, ${((70 * size.width) / size.height).toFixed(2)}vh)` } : undefined;
  return (
    <figure className="media-preview">
      {media.media_type === 'VIDEO' ? (
        <video controls preload="metadata" src={media.media_uri} poster={media.media_preview_uri ?? media.media_thumb_uri ?? undefined} className="media-video">
          <track kind="captions" />
        </video>
      ) : (
        <div className="media-stage" style={stageStyle}>
          <img src={media.media_preview_uri ?? media.media_thumb_uri ?? media.media_uri} alt={media.file_name} />
          {size && media.objects.length > 0 && (
            <div className="media-boxes" aria-hidden="true">
              {media.objects.map((o) => (
                <div key={o.object_id} className="media-box" style={boxPosition(o.bounding_box, size)}>
                  <span>{o.label}</span>
                </div>
              ))}
            </div>
          )}
        </div>
      )}
      {media.frames.length > 0 && (
        <figcaption>
          <h3>Frames</h3>
          <ol className="frame-strip">
            {media.frames.map((frame) => (
              <li key={frame.media_id}>
                <MediaThumb
                  to={mediaPagePath(media.dataset_id, frame.media_id)}
                  src={thumbnailPath(media.dataset_id, frame.media_id)}
                  alt={`${media.file_name} at ${formatTimestamp(frame.frame_timestamp)}`}
                  caption={formatTimestamp(frame.frame_timestamp)}
                />
              </li>
            ))}
          </ol>
        </figcaption>
      )}
    </figure>
  );
}
