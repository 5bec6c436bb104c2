import { useSyncExternalStore } from 'react';
import type { Store } from './store.ts';

export function useStore<S>(store: Store<S>): S {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
