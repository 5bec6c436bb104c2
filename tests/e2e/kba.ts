import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { kbaLabels, noneOfTheAbove } from '../../src/shared/kba.ts';

/** The identity questions' TEST MODE form and quiz, as a signer fills them (the booking page, the lobby). */
export const kbaQuestions = (page: Page) => page.getByRole('group', { name: /^\d\. / });

/** The details the questions are drawn from, then the quiz starts (its timer shows). */
export async function startKbaQuiz(page: Page, lastName = 'Hopper') {
  await page.getByLabel('Legal last name').fill(lastName);
  await page.getByLabel('Date of birth').fill('1980-12-09');
  await page.getByLabel('Home street address').fill('17 Quarry Hollow Rd');
  await page.getByLabel('City', { exact: true }).fill('Marion');
  await page.getByLabel('State').selectOption('IA');
  await page.getByLabel('ZIP code').fill('52302');
  await page.getByLabel('Last 4 digits of your SSN').fill('6789');
  await page.getByRole('button', { name: kbaLabels.start }).click();
  await page.getByRole('timer', { name: kbaLabels.timeLeft }).waitFor();
}

/** Answers every question from the TEST MODE answer sheet (right), or against it (wrong), by keyboard, and submits. */
export async function answerKbaQuiz(page: Page, right: boolean) {
  const sheet = await page.getByRole('region', { name: kbaLabels.answerSheet }).textContent();
  for (const group of await kbaQuestions(page).all()) {
    const labels = await group.getByRole('radio').evaluateAll((radios) => radios.map((r) => r.parentElement!.textContent!.trim()));
    const fromSheet = labels.find((l) => l !== noneOfTheAbove && sheet!.includes(l)) ?? noneOfTheAbove;
    const choice = right ? fromSheet : labels.find((l) => l !== fromSheet)!;
    // Keyboard: focus the choice and select it with Space, as a keyboard user would.
    const radio = group.getByRole('radio', { name: choice, exact: true });
    await radio.focus();
    await page.keyboard.press('Space');
    expect(await radio.isChecked()).toBe(true);
  }
  await page.getByRole('button', { name: kbaLabels.submit }).click();
}
