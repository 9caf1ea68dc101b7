import { useMedia } from '../media/media-api';
import { thumbnailPath } from '../media/media-thumb';

/** The media under the cursor: its thumbnail and file name, beside the cursor. */
export function MapHover({ datasetId, mediaId, x, y }: { datasetId: string; mediaId: string; x: number; y: number }) {
  const media = useMedia(datasetId, mediaId);
  const name = media.data?.file_name ?? '…';
  return (
    <div className="map-hover" style={{ left: x + 14, top: y + 14 }} role="tooltip">
      <img src={thumbnailPath(datasetId, mediaId)} alt={media.data?.file_name ?? ''} width={128} height={128} />
      <span>{name}</span>
    </div>
  );
}
