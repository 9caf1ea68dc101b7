import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/api/v1/auth/me')), staleTime: 60_000 });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { api_key: string; api_secret: string }) => unwrap(api.POST('/api/v1/auth/session', { body })),
    onSuccess: (me) => {
      queryClient.clear();
      queryClient.setQueryData(['me'], me);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/auth/session')),
    onSuccess: () => queryClient.clear(),
  });
}
