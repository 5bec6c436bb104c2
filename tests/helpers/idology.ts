import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for IDology ExpectID IQ speaking its documented format:
 * form-encoded POSTs to `/idiq.svc` (person → id-number and questions) and
 * `/idliveq-answers.svc` (id-number, questionNType/questionNAnswer → result key),
 * XML answers. It marks the answers itself, as IDology does: the correct one is
 * the first listed answer of every question, except "Nobody" (no records: no
 * questions) and "Broken" (an error element).
 */
export interface IdologyStandIn {
  url: string;
  /** Every request's form fields, in order (tests check what was sent). */
  requests: { path: string; fields: Record<string, string>; contentType: string }[];
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const bank = [
  { type: 'street.number', prompt: 'Which of the following address numbers do you relate to the residence on STILLWOOD DR?', answers: ['1333', '1212', '8629', '518', '1811'] },
  { type: 'county', prompt: 'When you were associated with the city of ATLANTA, in which of the counties below was that location?', answers: ['DEKALB', 'HUNTERDON', 'CONECUH', 'DE SOTO', 'MARSHALL'] },
  { type: 'city.of.residence', prompt: 'In which of the cities below was your residence on CASTLE FALLS DR?', answers: ['ATLANTA', 'CANYONDAM', 'ASPEN', 'PIMA', 'LUPTON'] },
  { type: 'purchased.vehicle', prompt: 'Which of these vehicles have you purchased or leased?', answers: ['2014 FORD ESCAPE', '2011 HONDA ACCORD', '2016 KIA OPTIMA', '2009 GMC SIERRA', '2018 MAZDA 3'] },
  { type: 'person.known', prompt: 'Which of these people do you know?', answers: ['JOAN SMITH & ASSOC', 'ALAN TURING', 'ADA LOVELACE', 'KATHERINE JOHNSON', 'DOROTHY VAUGHAN'] },
];

export async function startIdologyStandIn(credentials = { username: 'notary-api', password: 'stand-in-secret' }): Promise<IdologyStandIn> {
  const requests: IdologyStandIn['requests'] = [];
  let next = 2979183;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      requests.push({ path: req.url ?? '', fields, contentType: req.headers['content-type'] ?? '' });
      const reply = (xml: string) => {
        res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
        res.end(`<?xml version="1.0"?>\n${xml}`);
      };
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        res.writeHead(405).end();
        return;
      }
      if (fields.username !== credentials.username || fields.password !== credentials.password) return reply('<response><error>Invalid username and password</error></response>');
      if (req.url === '/idiq.svc') {
        if (fields.lastName === 'Broken') return reply('<response><error>Your IP address is not registered</error></response>');
        const id = next++;
        if (fields.lastName === 'Nobody') return reply(`<response><id-number>${id}</id-number><results><key>result.no.match</key><message>ID Not Located</message></results></response>`);
        const questions = bank
          .map((q) => `<question><prompt>${escape(q.prompt)}</prompt><type>${q.type}</type>${[...q.answers, 'None of the above'].map((a) => `<answer>${escape(a)}</answer>`).join('')}</question>`)
          .join('');
        return reply(`<response><id-number>${id}</id-number><summary-result><key>id.success</key><message>PASS</message></summary-result><results><key>result.match</key><message>ID Located</message></results><questions>${questions}</questions></response>`);
      }
      if (req.url === '/idliveq-answers.svc') {
        let incorrect = 0;
        bank.forEach((q, i) => {
          if (fields[`question${i + 1}Type`] !== q.type || fields[`question${i + 1}Answer`] !== q.answers[0]) incorrect++;
        });
        return reply(`<response><id-number>${fields.idNumber}</id-number><idliveq-result><key>result.questions.${incorrect}.incorrect</key><message>${5 - incorrect} of 5 correct</message></idliveq-result></response>`);
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
