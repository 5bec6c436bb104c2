import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

/**
 * Every variable the server reads is explained in `.env.example` and in the
 * README's configuration table, and neither documents one that does not exist.
 */
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

const schemaVariables = [...read('src/server/config.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!).sort();
const envExampleVariables = [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!).sort();
const readmeTableVariables = [...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!).sort();

describe('configuration documentation', () => {
  it('finds the variables in config.ts', () => {
    expect(schemaVariables).toContain('DATABASE_URL');
    expect(schemaVariables.length).toBeGreaterThan(30);
  });

  it('.env.example lists exactly the variables config.ts reads', () => {
    expect(envExampleVariables).toEqual(schemaVariables);
  });

  it('the README table lists exactly the variables config.ts reads, one per row', () => {
    expect(readmeTableVariables).toEqual(schemaVariables);
  });

  it('.env.example marks STRIPE_API_BASE as test-only', () => {
    expect(read('.env.example')).toMatch(/TESTS ONLY[^\n]*\n[^\n]*\nSTRIPE_API_BASE=/);
  });

  it('.env.example, loaded as it is, is a valid configuration with the defaults', () => {
    const env = Object.fromEntries(
      [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^"(.*)"$/, '$1')]),
    );
    const fromExample = loadConfig(env);
    const defaults = loadConfig({});
    for (const name of schemaVariables) {
      expect(fromExample[name as keyof typeof fromExample], name).toEqual(defaults[name as keyof typeof defaults]);
    }
  });
});
