/**
 * Whether this device can keep the app and its zone lists for offline use: browsers run service
 * workers only in a secure context (https with a certificate the device trusts, or localhost),
 * and refuse one whose certificate warning was only clicked through.
 */
export const offlineUse: Promise<boolean> =
  "serviceWorker" in navigator && window.isSecureContext
    ? navigator.serviceWorker.register("/sw.js").then(
        () => true,
        () => false,
      )
    : Promise.resolve(false);
