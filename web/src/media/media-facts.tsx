import { Link } from 'react-router';
import type { Media } from './media-api';
import { type Fact, exifFacts, formatBytes, formatTimestamp, valueText } from './media-format';
import { mediaPagePath } from './media-thumb';

function FactList({ facts, label }: { facts: Fact[]; label: string }) {
  return (
    <dl className="facts" aria-label={label}>
      {facts.map((fact) => (
        <div key={fact.term}>
          <dt>{fact.term}</dt>
          <dd>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The file facts, EXIF, caption, detected objects and custom fields of a media item. */
export function MediaFacts({ media }: { media: Media }) {
  const facts: Fact[] = [
    { term: 'Name', value: media.file_name },
    { term: 'Type', value: media.media_type },
    { term: 'Size', value: formatBytes(media.file_size) },
    { term: 'Dimensions', value: media.width && media.height ? `${media.width} × ${media.height}` : '—' },
    { term: 'Format', value: `${media.format} (${media.mime})` },
    { term: 'Created', value: new Date(media.created_at).toLocaleString() },
  ];
  if (media.duration_seconds !== null) facts.push({ term: 'Duration', value: formatTimestamp(media.duration_seconds) });
  const exif = exifFacts(media.exif);
  const fields = Object.entries(media.custom_fields).map(([term, value]) => ({ term, value: valueText(value) }));
  return (
    <div className="stack">
      <section aria-labelledby="media-file">
        <h3 id="media-file">File</h3>
        <FactList facts={facts} label="File facts" />
        {media.parent_media_id && (
          <p>
            Frame at {formatTimestamp(media.frame_timestamp ?? 0)} of <Link to={mediaPagePath(media.dataset_id, media.parent_media_id)}>its video</Link>
          </p>
        )}
      </section>
      {exif.length > 0 && (
        <section aria-labelledby="media-exif">
          <h3 id="media-exif">EXIF</h3>
          <FactList facts={exif} label="EXIF" />
        </section>
      )}
      <section aria-labelledby="media-caption">
        <h3 id="media-caption">Caption</h3>
        <p className={media.caption ? undefined : 'muted'}>{media.caption ?? 'No caption (the dataset is not enriched with a captioner).'}</p>
      </section>
      {media.objects.length > 0 && (
        <section aria-labelledby="media-objects">
          <h3 id="media-objects">Detected objects</h3>
          <ul aria-labelledby="media-objects">
            {media.objects.map((o) => (
              <li key={o.object_id}>
                {o.label} ({Math.round(o.score * 100)} %){o.caption ? ` — ${o.caption}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
      {fields.length > 0 && (
        <section aria-labelledby="media-fields">
          <h3 id="media-fields">Custom fields</h3>
          <FactList facts={fields} label="Custom fields" />
        </section>
      )}
    </div>
  );
}
