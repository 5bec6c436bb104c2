import { createHash, randomUUID } from 'node:crypto';
import { kbaRules, noneOfTheAbove, type KbaAnswerSheet, type KbaPerson } from '../../../shared/kba.ts';
import type { KbaProvider, KbaQuestion } from './types.ts';

/**
 * The built-in TEST MODE KBA provider. From the signer's details it builds a
 * deterministic, fictional public-records profile (the same details always give
 * the same profile) drawn from four made-up data sources, and asks five of ten
 * questions about it, each with five answers and "None of the above". Testers
 * pass or fail on purpose with the TEST MODE answer sheet the manage page shows
 * (test mode only); the last name "KbaFail" always fails. The service applies
 * the same timer, pass mark, retry and lockout as for a real provider.
 */
export const kbaFailLastName = 'KbaFail';

const pools = {
  street: ['Maple Ave', 'Cedar Ln', 'Birch St', 'Willow Dr', 'Prairie Rd', 'Lakeview Ct', 'Hickory Way', 'Sycamore Blvd', 'Orchard St', 'Juniper Pl', 'Aspen Trl', 'Magnolia Dr'],
  city: ['Cedar Falls', 'Ames', 'Dubuque', 'Ottumwa', 'Mason City', 'Muscatine', 'Marshalltown', 'Clinton', 'Burlington', 'Fort Dodge', 'Newton', 'Spencer'],
  vehicle: ['Subaru Outback', 'Honda Civic', 'Ford F-150', 'Toyota Camry', 'Chevrolet Malibu', 'Jeep Cherokee', 'Nissan Altima', 'Hyundai Elantra', 'Kia Soul', 'Mazda CX-5', 'Buick Enclave', 'Dodge Caravan'],
  year: ['2009', '2010', '2011', '2012', '2013', '2014', '2015', '2016', '2017', '2018', '2019', '2020'],
  person: ['Dana Whitfield', 'Marcus Lee', 'Priya Raman', 'Tom Kowalski', 'Elena Duarte', 'Samuel Okafor', 'Jenna Holt', 'Victor Chen', 'Rosa Alvarez', 'Owen Brandt', 'Leah Novak', 'Caleb Price'],
  employer: ['Prairie Mills Co.', 'Riverbend Logistics', 'Hawkeye Insurance Group', 'Golden Plains Foods', 'Northstar Credit Union', 'Cornbelt Machinery', 'Bluestem Health', 'Lakeside Printing', 'Summit Hardware', 'Twin Oaks Dental', 'Keystone Freight', 'Meadowlark Media'],
  lender: ['Heartland Savings', 'First Prairie Bank', 'Cornerstone Mortgage', 'Great River Lending', 'Union Home Loans', 'Hometown Trust', 'Pioneer Federal', 'Liberty Mutual Savings', 'Oakridge Bank', 'Capitol Lending', 'Midland Home Finance', 'Clearwater Bank'],
  areaCode: ['319', '515', '563', '641', '712', '402', '608', '309', '816', '612', '414', '217'],
  boat: ['Tracker Pro 170', 'Lund Fury 1600', 'Bayliner VR5', 'Sea Ray SPX 190', 'Crestliner 1750', 'Alumacraft Escape', 'Ranger RT188', 'Starcraft SVX 191', 'Yamaha AR190', 'Chaparral 19 SSi', 'Bennington 20 SX', 'Glastron GT 180'],
} as const;

/** A small seeded generator (mulberry32): the same seed, the same profile and quiz. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seedOf = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const normal = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

export interface TestProfile {
  houseNumber: number;
  street: string;
  city: string;
  vehicle: string;
  vehicleYear: string;
  associates: [string, string];
  employer: string;
  lender: string;
  areaCode: string;
}

/** The fictional public record of a person: a function of their details only. */
export function testProfile(person: KbaPerson): TestProfile {
  const random = rng(seedOf([person.firstName, person.lastName, person.dateOfBirth, person.zip].map(normal).join('|')));
  const pick = <K extends keyof typeof pools>(k: K) => pools[k][Math.floor(random() * pools[k].length)]!;
  const [first, second] = shuffled(pools.person, random);
  return {
    houseNumber: 100 + Math.floor(random() * 9800),
    street: pick('street'),
    city: pick('city'),
    vehicle: pick('vehicle'),
    vehicleYear: pick('year'),
    associates: [first!, second!],
    employer: pick('employer'),
    lender: pick('lender'),
    areaCode: pick('areaCode'),
  };
}

interface BankEntry {
  id: string;
  prompt: (p: TestProfile) => string;
  pool: keyof typeof pools;
  /** The profile's answer, or null: "None of the above" is right. */
  answer: (p: TestProfile) => string | null;
}

/** Ten kinds of question over four sources; a quiz asks five. */
const bank: BankEntry[] = [
  { id: 'street', prompt: () => 'Which of these streets have you lived on?', pool: 'street', answer: (p) => p.street },
  { id: 'city', prompt: (p) => `When you lived on ${p.street}, in which city was that address?`, pool: 'city', answer: (p) => p.city },
  { id: 'vehicle', prompt: () => 'Which of these vehicles have you owned or leased?', pool: 'vehicle', answer: (p) => p.vehicle },
  { id: 'vehicle-year', prompt: (p) => `What is the model year of the ${p.vehicle} registered to you?`, pool: 'year', answer: (p) => p.vehicleYear },
  { id: 'associate', prompt: () => 'Which of these people have you been associated with?', pool: 'person', answer: (p) => p.associates[0] },
  { id: 'co-resident', prompt: (p) => `Who has shared an address with you on ${p.street}?`, pool: 'person', answer: (p) => p.associates[1] },
  { id: 'employer', prompt: () => 'Which of these companies have you worked for?', pool: 'employer', answer: (p) => p.employer },
  { id: 'lender', prompt: () => 'Which of these lenders has given you a mortgage?', pool: 'lender', answer: (p) => p.lender },
  { id: 'area-code', prompt: () => 'Which of these telephone area codes have you had a number in?', pool: 'areaCode', answer: (p) => p.areaCode },
  { id: 'boat', prompt: () => 'Which of these boats has been registered in your name?', pool: 'boat', answer: () => null },
];

export const testSources = ['Property and address records (TEST MODE)', 'Motor vehicle and boat registrations (TEST MODE)', 'Employment and lending records (TEST MODE)', 'Associated-persons index (TEST MODE)'];

interface TestAnswerKey {
  correct: Record<string, string>;
  alwaysFail: boolean;
}

function buildQuestion(entry: BankEntry, profile: TestProfile, random: () => number): { question: KbaQuestion; correctId: string } {
  const right = entry.answer(profile);
  const avoid = new Set([right, ...(entry.pool === 'person' ? profile.associates : [])]);
  const decoys = shuffled(pools[entry.pool].filter((v) => !avoid.has(v)), random).slice(0, right ? kbaRules.minChoices - 1 : kbaRules.minChoices);
  const labels = shuffled(right ? [right, ...decoys] : decoys, random);
  const choices = [...labels, noneOfTheAbove].map((label, i) => ({ id: `c${i + 1}`, label }));
  const correctId = choices.find((c) => c.label === (right ?? noneOfTheAbove))!.id;
  return { question: { id: entry.id, type: entry.id, prompt: entry.prompt(profile), choices }, correctId };
}

export function createTestKbaProvider(): KbaProvider {
  return {
    mode: 'test',

    async start(person, context) {
      const profile = testProfile(person);
      const random = rng(seedOf(`${[person.firstName, person.lastName, person.dateOfBirth, person.zip].map(normal).join('|')}#${context.attempt}`));
      // Questions not asked last time first: a retry is a fresh set.
      const previous = new Set(context.previousQuestionIds);
      const order = shuffled(bank, random);
      const chosen = [...order.filter((e) => !previous.has(e.id)), ...order.filter((e) => previous.has(e.id))].slice(0, kbaRules.questions);
      const built = chosen.map((entry) => buildQuestion(entry, profile, random));
      const key: TestAnswerKey = {
        correct: Object.fromEntries(built.map((b) => [b.question.id, b.correctId])),
        alwaysFail: normal(person.lastName) === normal(kbaFailLastName),
      };
      return { kind: 'quiz', reference: `kba_test_${randomUUID().replace(/-/g, '').slice(0, 24)}`, questions: built.map((b) => b.question), answerKey: JSON.stringify(key) };
    },

    async answer(quiz, answers) {
      const key = JSON.parse(quiz.answerKey ?? '{}') as TestAnswerKey;
      const correct = key.alwaysFail ? 0 : quiz.questions.filter((q) => key.correct?.[q.id] !== undefined && answers[q.id] === key.correct[q.id]).length;
      return { correct, total: quiz.questions.length, reference: quiz.reference };
    },

    answerSheet(person): KbaAnswerSheet {
      const p = testProfile(person);
      return {
        sources: testSources,
        facts: [
          { label: 'Past address', value: `${p.houseNumber} ${p.street}, ${p.city}` },
          { label: 'Vehicle', value: `${p.vehicleYear} ${p.vehicle}` },
          { label: 'Associated people', value: `${p.associates[0]}; ${p.associates[1]} (shared the address on ${p.street})` },
          { label: 'Employer', value: p.employer },
          { label: 'Mortgage lender', value: p.lender },
          { label: 'Telephone area code', value: p.areaCode },
          { label: 'Boats registered', value: `None (answer “${noneOfTheAbove}”)` },
        ],
      };
    },
  };
}
