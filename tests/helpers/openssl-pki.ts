import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A test PKI made with OpenSSL, and OpenSSL's own peers on loopback, run from
 * the tests like coturn is (tests/helpers/coturn.ts):
 * - a root CA issuing the notary's certificate (AIA OCSP and CRL distribution
 *   point on loopback) and a timestamp authority's (extendedKeyUsage
 *   timeStamping, critical);
 * - one small loopback HTTP wrapper in front of OpenSSL's own peers, one
 *   openssl per request: `openssl ts -reply` (POST /tsa) and `openssl ocsp
 *   -index index.txt -reqin … -respout …` (POST /ocsp: the responder reads the
 *   CA's index afresh every time, so a revocation shows at once; `-port`
 *   would listen on every interface); GET /ca.crl serves the CRL.
 * Certificates can be revoked (index and CRL updated) or issued expired.
 */
export interface TestPki {
  dir: string;
  rootPem: string;
  rootDer: Buffer;
  tsaUrl: string;
  ocspUrl: string;
  crlUrl: string;
  /** Requests each peer answered, to see who was asked. */
  hits: { tsa: number; crl: number; ocsp: number };
  issueNotary(name: string, options?: { expired?: boolean }): NotaryCertificate;
  revoke(certificate: NotaryCertificate): void;
  stop(): Promise<void>;
}

export interface NotaryCertificate {
  p12: Buffer;
  password: string;
  pem: string;
  pemPath: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const openssl = (dir: string, args: string[], input?: Buffer) => execFileSync('openssl', args, { cwd: dir, input, stdio: ['pipe', 'pipe', 'pipe'] });

export async function startTestPki(): Promise<TestPki> {
  const dir = mkdtempSync(path.join(tmpdir(), 'test-pki-'));
  const httpPort = await freePort();
  const base = `http://127.0.0.1:${httpPort}`;
  const ocspUrl = `${base}/ocsp`;
  const crlUrl = `${base}/ca.crl`;
  writeFileSync(path.join(dir, 'index.txt'), '');
  writeFileSync(path.join(dir, 'serial'), '1000\n');
  writeFileSync(path.join(dir, 'crlnumber'), '1000\n');
  writeFileSync(path.join(dir, 'tsaserial'), '01\n');
  writeFileSync(
    path.join(dir, 'ca.cnf'),
    `[ ca ]
default_ca = test_ca
[ test_ca ]
dir = ${dir}
database = $dir/index.txt
new_certs_dir = $dir
serial = $dir/serial
crlnumber = $dir/crlnumber
certificate = $dir/root.pem
private_key = $dir/root.key
default_md = sha256
default_days = 365
default_crl_days = 7
policy = anything
unique_subject = no
copy_extensions = none
[ anything ]
commonName = supplied
organizationName = optional
countryName = optional
[ notary_ext ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
authorityInfoAccess = OCSP;URI:${ocspUrl},caIssuers;URI:${base}/root.crt
crlDistributionPoints = URI:${crlUrl}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ tsa_ext ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
authorityInfoAccess = OCSP;URI:${ocspUrl}
crlDistributionPoints = URI:${crlUrl}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = ${dir}
serial = $dir/tsaserial
crypto_device = builtin
signer_cert = $dir/tsa.pem
certs = $dir/root.pem
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`,
  );
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', '3650', '-subj', '/CN=NotaryOnline Test Root CA/O=NotaryOnline tests',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-addext', 'subjectKeyIdentifier=hash']);
  const issue = (name: string, ext: string, subject: string, extra: string[] = []) => {
    openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    openssl(dir, ['ca', '-batch', '-notext', '-config', 'ca.cnf', '-extensions', ext, '-in', `${name}.csr`, '-out', `${name}.pem`, ...extra]);
  };
  issue('tsa', 'tsa_ext', '/CN=NotaryOnline Test TSA/O=NotaryOnline tests');
  const gencrl = () => {
    openssl(dir, ['ca', '-gencrl', '-config', 'ca.cnf', '-out', 'ca.crl.pem']);
    openssl(dir, ['crl', '-in', 'ca.crl.pem', '-outform', 'DER', '-out', 'ca.crl']);
  };
  gencrl();
  const rootPem = path.join(dir, 'root.pem');
  const rootDer = openssl(dir, ['x509', '-in', 'root.pem', '-outform', 'DER']);

  const hits = { tsa: 0, crl: 0, ocsp: 0 };
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/ca.crl') {
      hits.crl += 1;
      res.writeHead(200, { 'Content-Type': 'application/pkix-crl' }).end(readFileSync(path.join(dir, 'ca.crl')));
      return;
    }
    if (req.method === 'GET' && req.url === '/root.crt') {
      res.writeHead(200, { 'Content-Type': 'application/pkix-cert' }).end(rootDer);
      return;
    }
    const peer = req.method === 'POST' ? ({ '/tsa': 'tsa', '/ocsp': 'ocsp' } as const)[req.url ?? ''] : undefined;
    if (!peer) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits[peer] += 1;
      const id = randomBytes(6).toString('hex');
      const query = path.join(dir, `${id}.req`);
      const reply = path.join(dir, `${id}.resp`);
      writeFileSync(query, Buffer.concat(chunks));
      // OpenSSL answers one request from a file each time, reading index.txt afresh (a revocation shows at once).
      const args =
        peer === 'tsa'
          ? ['ts', '-reply', '-config', 'ca.cnf', '-queryfile', query, '-out', reply]
          : ['ocsp', '-index', 'index.txt', '-reqin', query, '-respout', reply, '-rsigner', 'root.pem', '-rkey', 'root.key', '-CA', 'root.pem', '-ndays', '1'];
      const child = spawn('openssl', args, { cwd: dir, stdio: 'ignore' });
      child.on('exit', (code) => {
        if (code !== 0) return void res.writeHead(500).end();
        res.writeHead(200, { 'Content-Type': peer === 'tsa' ? 'application/timestamp-reply' : 'application/ocsp-response' }).end(readFileSync(reply));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(httpPort, '127.0.0.1', resolve));

  let count = 0;
  return {
    dir,
    rootPem,
    rootDer,
    tsaUrl: `${base}/tsa`,
    ocspUrl,
    crlUrl,
    hits,
    issueNotary(name, options = {}) {
      count += 1;
      const file = `notary-${count}`;
      issue(file, 'notary_ext', `/CN=${name}/O=NotaryOnline tests`, options.expired ? ['-startdate', '20200101000000Z', '-enddate', '20210101000000Z'] : []);
      const password = randomBytes(9).toString('base64url');
      openssl(dir, ['pkcs12', '-export', '-inkey', `${file}.key`, '-in', `${file}.pem`, '-certfile', 'root.pem', '-passout', `pass:${password}`, '-out', `${file}.p12`]);
      const pemPath = path.join(dir, `${file}.pem`);
      return { p12: readFileSync(path.join(dir, `${file}.p12`)), password, pem: readFileSync(pemPath, 'utf8'), pemPath };
    },
    revoke(certificate) {
      openssl(dir, ['ca', '-config', 'ca.cnf', '-revoke', certificate.pemPath, '-crl_reason', 'keyCompromise']);
      gencrl();
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
