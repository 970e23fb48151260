/** The web board's one page: the shell (navigation, theme, connection) around the view the address names. */
export function shellPage(folderName: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/webview.css">
<link rel="stylesheet" href="/web.css">
<title>${escapeHtml(folderName)} — Agent Ledger</title>
</head>
<body data-host="browser">
<a class="skip" href="#app">Skip to the view</a>
<div class="shell-top">
<span class="brand">Agent Ledger</span>
<span class="folder">${escapeHtml(folderName)}</span>
<nav id="nav" aria-label="Views"></nav>
<span class="spacer-x"></span>
<span id="connection" role="status"></span>
<button id="theme" type="button">Theme</button>
</div>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script src="/web.js"></script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
