import { lazy, Suspense, useState, useSyncExternalStore } from 'react';

/**
 * Toasts: `toast({ title, description, variant })` from anywhere; the one
 * <Toaster/> in the root layout shows them. The store is tiny; the Radix view
 * (announced politely, dismissable by keyboard and swipe) is downloaded only
 * when the first toast appears, so it stays off every page's first load.
 */
export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}
export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows a toast; the id lets the caller dismiss it once it no longer holds (a failure retried with success). */
export function toast(input: ToastInput): number {
  const id = nextId++;
  items = [...items.slice(-2), { ...input, id, open: true }];
  emit();
  return id;
}

export function dismissToast(id: number): void {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  setTimeout(() => {
    items = items.filter((t) => t.id !== id);
    emit();
  }, 300);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const emptyList: ToastItem[] = [];

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => items, () => emptyList);
}

const ToasterView = lazy(() => import('./toaster-view.tsx'));

export function Toaster() {
  const list = useToasts();
  // Mounted from the first toast on, so closing animations can finish.
  const [active, setActive] = useState(false);
  if (list.length > 0 && !active) setActive(true);
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView toasts={list} />
    </Suspense>
  );
}
