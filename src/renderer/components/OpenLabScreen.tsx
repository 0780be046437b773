/**
 * Shown in a browser when the page has no engine token: opened by hand, or the token stopped
 * working. It says exactly how to get a working URL.
 */
export function OpenLabScreen({ problem }: { problem: string | null }) {
  return (
    <main className="open-lab">
      <div className="open-lab-card">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            C
          </span>
          <span className="brand-name">CueLab</span>
        </div>
        <h1>Open the lab from its engine</h1>
        <p>
          {problem ??
            'This page was opened without the engine’s access token, so it cannot reach the lab.'}
        </p>
        <ol className="open-lab-steps">
          <li>
            In a terminal, in your CueLab project, start the engine:
            <pre>
              <code>npx cuelab serve</code>
            </pre>
          </li>
          <li>
            Open the URL it prints. It looks like <code>http://127.0.0.1:PORT/?token=…</code> and
            carries a fresh token for each launch.
          </li>
        </ol>
        <p className="muted">
          The token keeps other programs and web pages on this machine away from your workspace. The
          desktop app passes it for you.
        </p>
      </div>
    </main>
  );
}
