import { createElement, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * Toasts: `toast({ title, description, variant })` from anywhere. The first toast mounts the
 * toaster on a root of its own at the end of <body>, after downloading the Radix view (announced
 * politely, dismissable by keyboard and swipe): neither this store nor the view is on any
 * page's first load, as no layout renders them (docs/decisions/051).
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
  mountToaster();
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

let toasterMounted = false;

/** Mounts the toaster once, from the first toast on, so closing animations can finish. */
function mountToaster(): void {
  if (toasterMounted || typeof document === 'undefined') return;
  toasterMounted = true;
  const container = document.createElement('div');
  document.body.append(container);
  void import('./toaster-view.tsx').then(({ Toaster }) => createRoot(container).render(createElement(Toaster)));
}
