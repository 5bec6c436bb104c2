import { cva } from 'class-variance-authority';

/** The button look, usable on links too; kept apart from <Button> so pages can style links without tailwind-merge. */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:pointer-events-none disabled:opacity-60',
  {
    variants: {
      variant: {
        default: 'bg-blue-700 text-white hover:bg-blue-800',
        secondary: 'bg-slate-100 text-slate-900 hover:bg-slate-200',
        outline: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50',
        'outline-inverse': 'border border-white/70 bg-transparent text-white hover:bg-blue-900',
        ghost: 'text-slate-800 hover:bg-slate-100',
        destructive: 'bg-red-700 text-white hover:bg-red-800',
        link: 'text-blue-700 underline underline-offset-4 hover:text-blue-800',
        inverse: 'bg-white text-blue-800 hover:bg-blue-50',
      },
      size: {
        default: 'h-11 px-5 text-sm',
        sm: 'h-9 px-3 text-sm',
        lg: 'h-12 px-7 text-base',
        icon: 'h-11 w-11',
        inline: 'h-auto p-0 text-sm',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);
