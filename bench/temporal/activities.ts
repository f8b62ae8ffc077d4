/** The one activity of `bench:temporal`: returns its input, so only Temporal's own costs are timed. */
export async function echo(message: string): Promise<string> {
  return message;
}
