import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

import { fieldClass as field } from './field-class.ts';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(field, 'h-11', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(field, 'min-h-28 py-2', className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(field, 'h-11', className)} {...props} />;
}
