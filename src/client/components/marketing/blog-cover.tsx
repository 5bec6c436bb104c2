import { blogImageSize } from '../../../shared/blog.ts';

/** A post's cover: AVIF, then WebP, each at 600 and 1200 px wide; sized so nothing shifts. */
export function BlogCover({
  image,
  alt,
  sizes,
  priority = false,
  className,
}: {
  image: string;
  alt: string;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  const base = image.replace(/\.webp$/, '');
  return (
    <picture>
      <source type="image/avif" srcSet={`${base}-600.avif 600w, ${base}.avif 1200w`} sizes={sizes} />
      <source type="image/webp" srcSet={`${base}-600.webp 600w, ${base}.webp 1200w`} sizes={sizes} />
      <img
        src={image}
        alt={alt}
        width={blogImageSize.width}
        height={blogImageSize.height}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding="async"
        className={className}
      />
    </picture>
  );
}
