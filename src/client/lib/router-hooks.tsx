import { useCallback, useEffect, useMemo } from 'react';
import { useLocation, useNavigate, type NavigateOptions } from 'react-router-dom';

// react-router's `useSearchParams` and `<Navigate>` are built from `useLocation` and `useNavigate`,
// which every page loads anyway; using them from any chunk puts their code in the shared
// react-router chunk on every first load. These equivalents cost a few bytes in the chunks that
// use them (docs/decisions/051).

type SearchInit = URLSearchParams | Record<string, string>;

/** The address's query, and a setter that navigates to the same path with a new query (as react-router's). */
export function useSearchParams(): [URLSearchParams, (next: SearchInit, options?: NavigateOptions) => void] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: SearchInit, options?: NavigateOptions) => {
      void navigate(`?${new URLSearchParams(next).toString()}`, options);
    },
    [navigate],
  );
  return [params, setParams];
}

/** Navigates once rendered, as react-router's `<Navigate>` (absolute paths only). */
export function Redirect({ to, replace = false }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace });
  }, [navigate, to, replace]);
  return null;
}
