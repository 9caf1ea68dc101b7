import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useDataset } from '../datasets/use-dataset';
import { ISSUES, ISSUE_WORDS } from '../explore/explore-query';
import { ErrorMessage } from '../ui/error-message';
import { useIssues } from './curation-api';

/** A share with the digits it needs: 1 in 5,000 shows as 0.02 %, not 0.0 %. */
function percent(count: number, total: number): string {
  if (total === 0) return '–';
  if (count === 0) return '0 %';
  return `${((100 * count) / total).toFixed(count * 1000 < total ? 2 : 1)} %`;
}

/** Label errors on detected objects (POST …/label_errors with target objects): counted apart, opened in the objects view. */
const OBJECT_ISSUES = [
  ['mislabels', 'Mislabelled objects'],
  ['class_outliers', 'Class outlier objects'],
] as const;

/** The Curation tab: how many media each issue type finds, a link to each in Explore, and the files that did not decode. */
export function CurationPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const [page, setPage] = useState(0);
  const issues = useIssues(datasetId, page, dataset.data?.status_new);
  const data = issues.data;
  const pages = data ? Math.max(1, Math.ceil(data.issues.corrupt / data.files_per_page)) : 1;

  return (
    <section aria-labelledby="curation-title" className="stack">
      <h2 id="curation-title">Curation</h2>
      {issues.error && <ErrorMessage error={issues.error} />}
      {data && (
        <>
          <p className="muted">
            {data.n_media.toLocaleString()} images and video frames in the current version
            {data.median_area !== null && <>; median size {Math.round(Math.sqrt(data.median_area)).toLocaleString()} px square (what “Odd size” compares with)</>}.
          </p>
          <div className="table-wrap">
            <table className="named-rows">
              <caption className="muted">Media (and detected objects) per issue type; each opens Explore filtered by it</caption>
              <thead>
                <tr>
                  <th scope="col">Issue</th>
                  <th scope="col" className="number">Media</th>
                  <th scope="col" className="number">Share</th>
                </tr>
              </thead>
              <tbody>
                {ISSUES.map((issue) => (
                  <tr key={issue}>
                    <th scope="row">
                      {data.issues[issue] > 0 ? <Link to={`/datasets/${datasetId}?issue=${issue}`}>{ISSUE_WORDS[issue]}</Link> : ISSUE_WORDS[issue]}
                    </th>
                    <td className="number">{data.issues[issue].toLocaleString()}</td>
                    <td className="number">{percent(data.issues[issue], data.n_media)}</td>
                  </tr>
                ))}
                {OBJECT_ISSUES.map(([issue, words]) => (
                  <tr key={`objects-${issue}`}>
                    <th scope="row">
                      {data.object_issues[issue] > 0 ? <Link to={`/datasets/${datasetId}?entity=OBJECTS&issue=${issue}`}>{words}</Link> : words}
                    </th>
                    <td className="number">{data.object_issues[issue].toLocaleString()}</td>
                    <td className="number">–</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">Corrupt files</th>
                  <td className="number">{data.issues.corrupt.toLocaleString()}</td>
                  <td className="number">–</td>
                </tr>
              </tbody>
            </table>
          </div>
          <h3>Corrupt files</h3>
          {data.issues.corrupt === 0 ? (
            <p className="muted">Every uploaded file decoded.</p>
          ) : (
            <>
              <div className="table-wrap">
                <table className="named-rows">
                  <caption className="muted">Uploaded files that failed to decode, oldest first: they are not in the dataset</caption>
                  <thead>
                    <tr>
                      <th scope="col">File name</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Uploaded</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.corrupt_files.map((file, i) => (
                      <tr key={`${page}-${i}`}>
                        <th scope="row">{file.file_name}</th>
                        <td>{file.reason}</td>
                        <td>{new Date(file.uploaded_at).toLocaleString()}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {pages > 1 && (
                <nav className="row" aria-label="Corrupt files pages">
                  <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</button>
                  <span>Page {page + 1} of {pages}</span>
                  <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>Next</button>
                </nav>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
