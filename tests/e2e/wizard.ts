import type { Page } from 'playwright-core';

/** Two days ahead in the wizard's calendar (the browser's own calendar date), turning the month when needed. */
export async function pickDateTwoDaysAhead(page: Page): Promise<void> {
  const target = await page.evaluate(() => {
    const d = new Date();
    const t = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 2);
    return { nextMonth: t.getMonth() !== d.getMonth(), day: t.getDate() };
  });
  if (target.nextMonth) await page.getByRole('button', { name: /next month/i }).click();
  await page.getByRole('grid').getByRole('button', { name: new RegExp(`\\b${target.day}, \\d{4}`) }).first().click();
}
