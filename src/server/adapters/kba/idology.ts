import { noneOfTheAbove } from '../../../shared/kba.ts';
import { KbaProviderError, type KbaProvider, type KbaQuestion } from './types.ts';

/**
 * IDology ExpectID IQ, written from its public API guide: both calls are
 * form-encoded POSTs answered with XML.
 *
 * - `POST {base}/idiq.svc` with `username`, `password`, `firstName`, `lastName`,
 *   `address`, `city`, `state`, `zip`, `dobMonth`, `dobDay`, `dobYear`, `ssnLast4`
 *   → `<response><id-number>…</id-number><results><key>result.match</key>…</results>
 *   <questions><question><prompt>…</prompt><type>…</type><answer>…</answer>…</question>…</questions></response>`
 *   (or `<error>…</error>`; no `<questions>` when the person cannot be asked).
 * - `POST {base}/idliveq-answers.svc` with `username`, `password`, `idNumber`,
 *   `question1Type`, `question1Answer` … `question5Type`, `question5Answer`
 *   → `<response><id-number>…</id-number><idliveq-result><key>result.questions.N.incorrect</key>
 *   <message>…</message></idliveq-result></response>` (`result.timeout` when IDology's own clock ran out).
 *
 * IDology marks the answers itself, so nothing secret is kept between the calls:
 * the answer is sent as the choice's text, as IDology expects.
 * The SSN digits go to IDology in the request body and nowhere else (never logged).
 */
export interface IdologyOptions {
  username: string;
  password: string;
  /** https://web.idologylive.com/api, or a local stand-in in tests. */
  apiBase: string;
  timeoutMs?: number;
}

// ---- A reader for IDology's small XML documents (elements and text; no DTDs, no namespaces needed) ----

export interface XmlNode {
  name: string;
  children: XmlNode[];
  text: string;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (entities[e] ?? whole),
  );

export function parseXml(xml: string): XmlNode {
  const root: XmlNode = { name: '#document', children: [], text: '' };
  const stack = [root];
  const token = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<\/\s*([\w.:-]+)\s*>|<([\w.:-]+)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (const m of xml.matchAll(token)) {
    const top = stack.at(-1)!;
    if (m[1] !== undefined) top.text += m[1];
    else if (m[2]) {
      if (stack.length === 1 || top.name !== m[2]) throw new KbaProviderError(`unexpected closing tag </${m[2]}>`);
      stack.pop();
    } else if (m[3]) {
      const node: XmlNode = { name: m[3], children: [], text: '' };
      top.children.push(node);
      if (!m[5]) stack.push(node);
    } else if (m[6] !== undefined) top.text += decode(m[6]);
  }
  if (stack.length !== 1) throw new KbaProviderError('unterminated XML document');
  return root;
}

const child = (node: XmlNode | undefined, name: string) => node?.children.find((c) => c.name === name);
const children = (node: XmlNode | undefined, name: string) => node?.children.filter((c) => c.name === name) ?? [];
const textOf = (node: XmlNode | undefined) => node?.text.trim() ?? '';

// ---- The adapter ------------------------------------------------------------------------------

export function createIdologyKbaProvider(options: IdologyOptions): KbaProvider {
  const base = options.apiBase.replace(/\/+$/, '');

  async function post(path: string, fields: Record<string, string>): Promise<XmlNode> {
    let res: Response;
    try {
      res = await fetch(`${base}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/xml, text/xml' },
        body: new URLSearchParams({ username: options.username, password: options.password, ...fields }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new KbaProviderError(`IDology ${path} did not answer: ${(error as Error).name}`);
    }
    const body = await res.text();
    if (!res.ok) throw new KbaProviderError(`IDology ${path} answered HTTP ${res.status}`);
    const response = child(parseXml(body), 'response');
    if (!response) throw new KbaProviderError(`IDology ${path} answered without a <response>`);
    const error = textOf(child(response, 'error'));
    if (error) throw new KbaProviderError(`IDology ${path} refused the request: ${error.slice(0, 200)}`);
    return response;
  }

  return {
    mode: 'idology',

    async start(person) {
      const [year, month, day] = person.dateOfBirth.split('-');
      const response = await post('idiq.svc', {
        firstName: person.firstName,
        lastName: person.lastName,
        address: person.street,
        city: person.city,
        state: person.state,
        zip: person.zip,
        dobMonth: month!,
        dobDay: day!,
        dobYear: year!,
        ssnLast4: person.ssnLast4,
      });
      const reference = textOf(child(response, 'id-number'));
      if (!reference) throw new KbaProviderError('IDology answered without an id-number');
      const questions: KbaQuestion[] = children(child(response, 'questions'), 'question').map((q, i) => {
        const type = textOf(child(q, 'type'));
        const answers = children(q, 'answer').map(textOf).filter(Boolean);
        // "None of the above" last, as our page shows it, whatever order IDology sent.
        const ordered = [...answers.filter((a) => a.toLowerCase() !== noneOfTheAbove.toLowerCase()), ...answers.filter((a) => a.toLowerCase() === noneOfTheAbove.toLowerCase())];
        return { id: type || `q${i + 1}`, type, prompt: textOf(child(q, 'prompt')), choices: ordered.map((label, j) => ({ id: `c${j + 1}`, label })) };
      });
      if (questions.length === 0) return { kind: 'declined', reference };
      if (questions.some((q) => !q.type || !q.prompt || q.choices.length < 2)) throw new KbaProviderError('IDology sent a question without a type, prompt or answers');
      return { kind: 'quiz', reference, questions, answerKey: null };
    },

    async answer(quiz, answers) {
      const fields: Record<string, string> = { idNumber: quiz.reference };
      quiz.questions.forEach((q, i) => {
        fields[`question${i + 1}Type`] = q.type;
        fields[`question${i + 1}Answer`] = q.choices.find((c) => c.id === answers[q.id])?.label ?? '';
      });
      const response = await post('idliveq-answers.svc', fields);
      const key = textOf(child(child(response, 'idliveq-result'), 'key'));
      const total = quiz.questions.length;
      const reference = textOf(child(response, 'id-number')) || quiz.reference;
      if (key === 'result.timeout') return { correct: 0, total, reference, timedOut: true };
      const incorrect = /^result\.questions\.(\d+)\.incorrect$/.exec(key);
      if (!incorrect) throw new KbaProviderError(`IDology answered an unknown result key (${key.slice(0, 60)})`);
      return { correct: Math.max(0, total - Number(incorrect[1])), total, reference };
    },
  };
}
