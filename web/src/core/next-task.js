// Yielding to the page between steps of long work.

/**
 * Resolves in a task of its own, after what the page has queued (input, rendering), without
 * the minimum delay browsers give nested timers.
 * @returns {Promise<void>}
 */
export function nextTask() {
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}
