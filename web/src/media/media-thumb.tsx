import { Link } from 'react-router';

/** A media thumbnail in a fixed square box, lazy, linking to the media's page; the link is named by the file name. */
export function MediaThumb({ to, src, alt, caption }: { to: string; src: string | null; alt: string; caption?: string }) {
  return (
    <Link to={to} className="media-thumb">
      <span className="media-thumb-box">{src ? <img src={src} alt={alt} loading="lazy" /> : <span className="muted">{alt}</span>}</span>
      {caption && <span className="media-thumb-caption">{caption}</span>}
    </Link>
  );
}

/** The variant route answers the signed-in browser by its session cookie (frames and duplicates come as ids only). */
export function thumbnailPath(datasetId: string, mediaId: string): string {
  return `/api/v1/dataset/${datasetId}/media/${mediaId}/thumbnail`;
}

export function mediaPagePath(datasetId: string, mediaId: string): string {
  return `/datasets/${datasetId}/media/${mediaId}`;
}
