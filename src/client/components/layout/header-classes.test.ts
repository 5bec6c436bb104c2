import { describe, expect, it } from 'vitest';
import { buttonVariants } from '../ui/button-variants.ts';
import { ghostIconButton, primaryButton, primaryButtonSmall } from './header-classes.ts';

describe('header button classes', () => {
  it('are the button variants they stand for', () => {
    expect(primaryButton).toBe(buttonVariants());
    expect(primaryButtonSmall).toBe(buttonVariants({ size: 'sm' }));
    expect(ghostIconButton).toBe(buttonVariants({ variant: 'ghost', size: 'icon' }));
  });
});
