// The words of the explorer's import report (explorer-report.js shows
// them): a skipped file's line. Pure, no DOM.

/**
 * A file's report line when nothing was read from it: "skipped: " and the
 * reason, without the "; skipped" many of core's reasons end with already
 * ("… could be used; skipped"), which would say it twice.
 * @param {string} reason
 * @returns {string}
 */
export function skippedLine(reason) {
  return `skipped: ${String(reason).replace(/;\s*skipped\s*$/, "")}`;
}
