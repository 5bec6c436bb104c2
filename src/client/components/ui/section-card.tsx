import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader } from './card.tsx';

/** A card with a section heading (and an optional line under it): the panels of the console and the manage page. */
export function SectionCard({ title, intro, contentClassName, children }: { title: ReactNode; intro?: ReactNode; contentClassName?: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {intro && <p className="text-slate-700">{intro}</p>}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
