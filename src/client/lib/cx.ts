/**
 * Joins class names conditionally, without merging conflicts. Marketing pages
 * use this instead of `cn` so tailwind-merge (~8 KB gzipped) stays off their
 * first load; pass no conflicting utilities here (use a variant instead).
 */
export { clsx as cx } from 'clsx';
