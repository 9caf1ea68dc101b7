import { ErrorMessage } from '../ui/error-message';
import { Modal } from '../ui/modal';
import { type Dataset, useDeleteDataset } from './use-datasets';

export function DeleteDatasetDialog({ dataset, onClose }: { dataset: Dataset; onClose: () => void }) {
  const remove = useDeleteDataset(dataset.id);
  return (
    <Modal title={`Delete ${dataset.display_name}?`} onClose={onClose} busy={remove.isPending}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          remove.mutate(undefined, { onSuccess: onClose });
        }}
      >
        <p style={{ margin: 0 }}>
          This deletes the dataset “{dataset.display_name}” with its {dataset.n_images} images and {dataset.n_videos} videos, for
          everyone it is shared with. It cannot be undone.
        </p>
        {remove.error && <ErrorMessage error={remove.error} />}
        <div className="row">
          <button type="submit" className="danger" disabled={remove.isPending}>
            Delete dataset
          </button>
          <button type="button" onClick={onClose} data-autofocus>
            Keep it
          </button>
        </div>
      </form>
    </Modal>
  );
}
