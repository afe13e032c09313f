/**
 * The work's answer, or the signal's reason once it aborts first: work that ignores its signal (a
 * client library that does not end its fetch when aborted) still cannot hold its caller. Work given
 * up that fails later is of no interest.
 */
export function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const passed = () => reject(deadline.reason);
    if (deadline.aborted) return passed();
    deadline.addEventListener("abort", passed, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener("abort", passed));
  });
}
