import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Issue 17's "Done means" and issue 14's log search: test/security/plant.ts plants values through the public API on
 * its own stack, erases the entity and reads PostgreSQL's heap files and WAL segments, Temporal's SQLite files and
 * every log line. It runs as its own process because embedded PostgreSQL is an ES module jest cannot load.
 */
describe('planted personal data and secrets (issue 17)', () => {
  it('rest nowhere in plaintext, and no API reads the erased entity back; the controls prove the search finds plaintext', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/security/plant.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      encoding: 'utf8',
      timeout: 280_000,
    });
    expect(
      run.stderr
        .split('\n')
        .filter((line) => line.startsWith('plant:') && !line.startsWith('plant: '))
        .join('\n'),
    ).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(report.controls).toMatchObject({
      plaintextFoundInHeap: true,
      plaintextFoundInWal: true,
      workflowTypeFoundInTemporal: true,
      workerReadyFoundInLogs: true,
    });
    expect(report.controls.heapFiles).toBeGreaterThan(100);
    expect(report.controls.temporalFiles).toBeGreaterThan(0);
    expect(report.controls.walFiles).toBeGreaterThan(0);
    expect(report.apiLeaks).toEqual([]);
    expect(report.found).toEqual({});
  }, 300_000);
});
