/** Stops the test services child: closing its stdin makes it shut everything down and exit. */
export default async function globalTeardown(): Promise<void> {
  const child = globalThis.__TEST_SERVICES__;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.stdin?.end();
  });
  child.stdout?.destroy();
}
