import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

const field =
  'w-full rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500 focus-visible:border-blue-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-700';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(field, 'h-11', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(field, 'min-h-28 py-2', className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(field, 'h-11', className)} {...props} />;
}
