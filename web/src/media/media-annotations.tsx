import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import { type Media, useMediaEdits } from './media-api';

/** The tags (add, remove) and the label (set, remove) of a media item. */
export function MediaAnnotations({ media }: { media: Media }) {
  const edits = useMediaEdits(media.dataset_id, media.media_id);
  const [tag, setTag] = useState('');
  const [label, setLabel] = useState(media.label ?? '');
  const failed = [edits.addTag, edits.removeTag, edits.setLabel].find((m) => m.error);

  const addTag = (event: FormEvent) => {
    event.preventDefault();
    const value = tag.trim();
    if (value) edits.addTag.mutate(value, { onSuccess: () => setTag('') });
  };
  const saveLabel = (event: FormEvent) => {
    event.preventDefault();
    edits.setLabel.mutate(label.trim() || null);
  };

  return (
    <section aria-labelledby="media-annotations" className="stack">
      <h3 id="media-annotations">Tags and label</h3>
      {media.tags.length > 0 ? (
        <ul className="row tag-list" aria-label="Tags">
          {media.tags.map((t) => (
            <li key={t} className="tag">
              {t}
              <button type="button" aria-label={`Remove tag ${t}`} onClick={() => edits.removeTag.mutate(t)} disabled={edits.removeTag.isPending}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No tags.</p>
      )}
      <form className="row" onSubmit={addTag}>
        <label className="inline">
          New tag
          <input value={tag} onChange={(e) => setTag(e.target.value)} maxLength={200} />
        </label>
        <button type="submit" disabled={!tag.trim() || edits.addTag.isPending}>
          Add tag
        </button>
      </form>
      <form className="row" onSubmit={saveLabel}>
        <label className="inline">
          Label
          <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={200} />
        </label>
        <button type="submit" disabled={edits.setLabel.isPending || label.trim() === (media.label ?? '')}>
          Set label
        </button>
      </form>
      <p>
        Current label: <strong>{media.label ?? 'none'}</strong>
      </p>
      {failed && <ErrorMessage error={failed.error} />}
    </section>
  );
}
