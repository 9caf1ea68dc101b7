import { Link } from 'react-router';
import { boxPercent, containFrame, percentStyle } from './geometry';
import type { Preview } from './use-explore';

interface Props {
  datasetId: string;
  preview: Preview;
  selected: boolean;
  /** Its whole cluster is selected: the media cannot be unselected alone. */
  locked: boolean;
  onSelect: (mediaId: string, shift: boolean) => void;
  onFindSimilar: (preview: Preview) => void;
}

/** One member of a cluster: its thumbnail (a link to the media), a checkbox, "Find similar", and its object's box. */
export function PreviewTile({ datasetId, preview, selected, locked, onSelect, onFindSimilar }: Props) {
  const frame = containFrame(preview.width, preview.height);
  const box = preview.bounding_box ? boxPercent(preview.bounding_box, preview.width, preview.height) : null;
  const name = preview.bounding_box ? `${preview.label ?? 'object'} in ${preview.file_name}` : preview.file_name;
  return (
    <li className={`preview${selected ? ' preview-selected' : ''}`}>
      <Link className="thumb-box" to={`/datasets/${datasetId}/media/${preview.media_id}`}>
        <span className="thumb-frame" style={percentStyle(frame)}>
          {preview.media_thumb_uri ? (
            <img src={preview.media_thumb_uri} alt={preview.file_name} loading="lazy" decoding="async" />
          ) : (
            <span className="thumb-missing">{preview.file_name}</span>
          )}
          {box && (
            <span className="object-box" style={percentStyle(box)}>
              <span className="object-label">{preview.label}</span>
            </span>
          )}
        </span>
      </Link>
      <input
        type="checkbox"
        className="preview-check"
        aria-label={`Select ${name}`}
        checked={selected}
        disabled={locked}
        // onClick, not onChange: the shift key is read from the click.
        onClick={(event) => onSelect(preview.media_id, event.shiftKey)}
        onChange={() => undefined}
      />
      <button type="button" className="preview-similar" aria-label={`Find similar to ${name}`} title="Find similar" onClick={() => onFindSimilar(preview)}>
        ≈
      </button>
    </li>
  );
}
