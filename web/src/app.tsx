import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { RequireSignIn } from './auth/require-sign-in';
import { SignInPage } from './auth/sign-in-page';
import { DatasetLayout } from './datasets/dataset-layout';
import { ExplorePage } from './explore/explore-page';
import { Shell } from './layout/shell';
import { NotFoundPage } from './layout/not-found-page';
import { createQueryClient } from './query-client';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route element={<RequireSignIn><Shell /></RequireSignIn>}>
            <Route index element={<Navigate to="/datasets" replace />} />
            <Route path="/datasets/:datasetId" element={<DatasetLayout />}>
              <Route index element={<ExplorePage />} />
            </Route>
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
