import { describe, expect, it } from 'vitest';
import { checkRoleDatabase, DEFAULT_JOB_DURATION_MS, parseJobEnvironment, parseServerRole } from '../../../server/src/config.ts';
import { DEFAULT_ENGINE_OPTIONS } from '../../../server/src/jobs/engine.ts';
import { createFileSigner, parseFileLink } from '../../../server/src/jobs/file-signing.ts';
import { simulatedDuration, simulatedOutcome, SLOW_FACTOR } from '../../../server/src/jobs/outcome.ts';

describe('the job environment', () => {
  it('defaults to 8 s jobs that never fail', () => {
    expect(parseJobEnvironment({})).toEqual({ durationMs: DEFAULT_JOB_DURATION_MS, failureRate: 0, nsfwRate: 0 });
    expect(DEFAULT_JOB_DURATION_MS).toBe(8000);
  });

  it('reads the variables and refuses bad values with a readable error', () => {
    expect(
      parseJobEnvironment({ KINORA_JOB_DURATION_MS: '250', KINORA_JOB_FAILURE_RATE: '0.1', KINORA_JOB_NSFW_RATE: '0.05', KINORA_JOB_CONCURRENCY: '8' }),
    ).toEqual({ durationMs: 250, failureRate: 0.1, nsfwRate: 0.05, concurrency: 8 });
    expect(() => parseJobEnvironment({ KINORA_JOB_FAILURE_RATE: '2' })).toThrow('KINORA_JOB_FAILURE_RATE must be between 0 and 1 (got "2")');
    expect(() => parseJobEnvironment({ KINORA_JOB_DURATION_MS: 'soon' })).toThrow(/KINORA_JOB_DURATION_MS/);
    expect(() => parseJobEnvironment({ KINORA_JOB_CONCURRENCY: '0' })).toThrow(/KINORA_JOB_CONCURRENCY/);
  });

  it('takes the lease a dead worker leaves its jobs under (KINORA_JOB_LEASE_MS), at least a second', () => {
    expect(parseJobEnvironment({ KINORA_JOB_LEASE_MS: '5000' })).toMatchObject({ leaseMs: 5000 });
    expect(parseJobEnvironment({})).not.toHaveProperty('leaseMs');
    expect(() => parseJobEnvironment({ KINORA_JOB_LEASE_MS: '50' })).toThrow('KINORA_JOB_LEASE_MS must be a whole number of milliseconds ≥ 1000 (got "50")');
  });

  it('takes one person’s running jobs at most (KINORA_MAX_RUNNING_PER_USER; 0: no limit; the engine’s 4 when unset)', () => {
    expect(parseJobEnvironment({ KINORA_MAX_RUNNING_PER_USER: '2' })).toMatchObject({ maxRunningPerUser: 2 });
    expect(parseJobEnvironment({ KINORA_MAX_RUNNING_PER_USER: '0' })).toMatchObject({ maxRunningPerUser: 0 });
    expect(parseJobEnvironment({})).not.toHaveProperty('maxRunningPerUser');
    expect(DEFAULT_ENGINE_OPTIONS.maxRunningPerUser).toBe(4);
    expect(() => parseJobEnvironment({ KINORA_MAX_RUNNING_PER_USER: '1.5' })).toThrow(
      'KINORA_MAX_RUNNING_PER_USER must be a whole number ≥ 0 (0: no limit) (got "1.5")',
    );
  });
});

describe('the process role', () => {
  it('is all by default, api or worker when asked, and anything else is refused by name', () => {
    expect(parseServerRole({})).toBe('all');
    expect(parseServerRole({ KINORA_ROLE: ' worker ' })).toBe('worker');
    expect(parseServerRole({ KINORA_ROLE: 'api' })).toBe('api');
    expect(() => parseServerRole({ KINORA_ROLE: 'render' })).toThrow('KINORA_ROLE must be "api", "worker" or "all" (got "render")');
  });

  it('other than all needs a shared PostgreSQL: the embedded database is one process\'s', () => {
    expect(() => checkRoleDatabase('api', undefined)).toThrow('KINORA_ROLE=api needs DATABASE_URL');
    expect(() => checkRoleDatabase('worker', ' ')).toThrow('KINORA_ROLE=worker needs DATABASE_URL');
    expect(() => checkRoleDatabase('all', undefined)).not.toThrow();
    expect(() => checkRoleDatabase('worker', 'postgres://db/kinora')).not.toThrow();
  });
});

describe('simulated outcomes', () => {
  it('follow the prompt markers, then the rates, drawn from the job id', () => {
    const none = { failureRate: 0, nsfwRate: 0 };
    expect(simulatedOutcome('job-a', 'a cat [FAIL]', none)).toBe('failed');
    expect(simulatedOutcome('job-a', 'a cat [nsfw]', none)).toBe('nsfw');
    expect(simulatedOutcome('job-a', 'a cat', none)).toBe('success');
    expect(simulatedOutcome('job-a', 'a cat', { failureRate: 1, nsfwRate: 0 })).toBe('failed');
    const ids = Array.from({ length: 400 }, (_, index) => `job-${index}`);
    const failed = ids.filter((id) => simulatedOutcome(id, 'x', { failureRate: 0.25, nsfwRate: 0 }) === 'failed');
    expect(failed.length).toBeGreaterThan(60);
    expect(failed.length).toBeLessThan(140);
    // The same job always draws the same fate.
    expect(ids.filter((id) => simulatedOutcome(id, 'x', { failureRate: 0.25, nsfwRate: 0 }) === 'failed')).toEqual(failed);
  });

  it('take SLOW_FACTOR times as long with [slow] in the prompt (a queue to watch), and succeed', () => {
    expect(simulatedDuration('a cat [SLOW]', 600)).toBe(600 * SLOW_FACTOR);
    expect(simulatedDuration('a cat', 600)).toBe(600);
    expect(simulatedOutcome('job-a', 'a cat [slow]', { failureRate: 0, nsfwRate: 0 })).toBe('success');
  });
});

describe('file links', () => {
  it('are signed for one file and one expiry, and parsed back from absolute or path-only URLs', () => {
    const signer = createFileSigner('secret');
    const now = Date.UTC(2030, 0, 1);
    const { url } = signer.sign('http://localhost:8787', 'fileAbc123', now);
    const parsed = parseFileLink(url);
    expect(parsed?.fileId).toBe('fileAbc123');
    expect(signer.verify('fileAbc123', parsed?.expires, parsed?.signature, now)).toBe(true);
    expect(signer.verify('fileXyz789', parsed?.expires, parsed?.signature, now)).toBe(false);
    expect(signer.verify('fileAbc123', parsed?.expires, parsed?.signature, now + 2 * 3600 * 1000)).toBe(false);
    expect(createFileSigner('other').verify('fileAbc123', parsed?.expires, parsed?.signature, now)).toBe(false);
    expect(parseFileLink(new URL(url).pathname)?.fileId).toBe('fileAbc123');
    expect(parseFileLink('https://example.test/cat.png')).toBeNull();
    expect(parseFileLink('/api/files/../../etc/passwd')).toBeNull();
  });
});
