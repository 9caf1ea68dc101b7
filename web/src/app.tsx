import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { RequireSignIn } from './auth/require-sign-in';
import { SignInPage } from './auth/sign-in-page';
import { CurationPage } from './curation/curation-page';
import { DatasetLayout } from './datasets/dataset-layout';
import { EnrichmentTab } from './enrichment/enrichment-tab';
import { DatasetsPage } from './datasets/datasets-page';
import { ExplorePage } from './explore/explore-page';
import { Shell } from './layout/shell';
import { NotFoundPage } from './layout/not-found-page';
import { NotificationsPage } from './notifications/notifications-page';
import { createQueryClient } from './query-client';
import { TasksPage } from './tasks/tasks-page';
import { ExportsPage } from './exports/exports-page';
import { MediaPage } from './media/media-page';
import { MapPage } from './map/map-page';
import { SnapshotsPage } from './snapshots/snapshots-page';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route element={<RequireSignIn><Shell /></RequireSignIn>}>
            <Route index element={<Navigate to="/datasets" replace />} />
            <Route path="/datasets" element={<DatasetsPage />} />
            <Route path="/datasets/:datasetId" element={<DatasetLayout />}>
              <Route path="curation" element={<CurationPage />} />
              <Route path="map" element={<MapPage />} />
              <Route path="enrich" element={<EnrichmentTab />} />
              <Route path="media/:mediaId" element={<MediaPage />} />
              <Route path="snapshots" element={<SnapshotsPage />} />
              <Route path="exports" element={<ExportsPage />} />
              <Route index element={<ExplorePage />} />
            </Route>
            <Route path="/tasks" element={<TasksPage />} />
            <Route path="/notifications" element={<NotificationsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
