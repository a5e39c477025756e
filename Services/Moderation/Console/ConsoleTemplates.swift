import Crypto
import Foundation
import Mustache

/// The console's pages as Mustache templates (`{{ }}` escapes HTML; `{{{ }}}` only ever carries the
/// console's own style, script and rendered page), with its one style sheet and one script inline.
/// They are in the source rather than in resource files so that every executable that serves the
/// console (`moderation`, `huddle`) carries them without a bundle to install beside it.
enum ConsoleTemplates {
    /// The parsed templates; made once when moderation is built, so a template that does not parse
    /// stops the service at start with the parser's error rather than at the first page.
    static func library() throws -> MustacheLibrary {
        var library = MustacheLibrary()
        for (name, text) in [("layout", layout), ("signIn", signIn), ("queue", queue), ("case", caseTemplate), ("audit", audit)] {
            try library.register(text, named: name)
        }
        return library
    }

    /// No script, style, frame, form target or base URL but the console's own: the inline style and
    /// script are allowed by their SHA-256 (nothing else inline runs), forms post only to the console.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src '\(hash(of: style))'; script-src '\(hash(of: script))'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    private static func hash(of text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Huddle moderation</title>
        <style>{{{style}}}</style>
        </head>
        <body>
        <header>
        <strong>Huddle moderation</strong>
        {{#session}}
        <nav>
        <a href="/admin" id="nav-queue">Queue</a>
        <a href="/admin?overdue=true" id="nav-overdue">Overdue</a>
        <a href="/admin?status=closed" id="nav-closed">Closed</a>
        <a href="/admin/audit" id="nav-audit">Audit trail</a>
        </nav>
        <form method="post" action="/admin/sign-out" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <span class="who">{{name}}</span> <button type="submit" id="sign-out">Sign out</button>
        </form>
        {{/session}}
        </header>
        <main>
        {{#error}}<p class="error" role="alert" id="error">{{error}}</p>{{/error}}
        {{{body}}}
        </main>
        <script>{{{script}}}</script>
        </body>
        </html>
        """

    static let signIn = """
        <h1>Sign in</h1>
        <p>For moderators: your Huddle email and password.</p>
        <form method="post" action="/admin/sign-in" id="sign-in">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>Email <input type="email" name="email" id="email" value="{{email}}" autocomplete="username" required></label>
        <label>Password <input type="password" name="password" id="password" autocomplete="current-password" required></label>
        <label>Code from your authenticator, if your second factor is on <input type="text" name="code" id="code" inputmode="numeric" autocomplete="one-time-code" maxlength="32"></label>
        <button type="submit" id="sign-in-button">Sign in</button>
        </form>
        """

    static let queue = """
        <h1>{{heading}}</h1>
        <p class="summary">{{summary}}</p>
        {{^cases}}<p id="empty">No cases here.</p>{{/cases}}
        {{#hasCases}}
        <table id="cases">
        <thead><tr><th>Opened</th><th>Subject</th><th>Reports</th><th>Reasons</th><th>As reported</th></tr></thead>
        <tbody>
        {{#cases}}
        <tr{{#overdue}} class="overdue"{{/overdue}}>
        <td>{{opened}}<br><small>{{age}} ago</small>{{#overdue}} <span class="badge">overdue</span>{{/overdue}}</td>
        <td>{{subjectType}}{{#hidden}} <span class="badge">hidden</span>{{/hidden}}{{#status}}<br><small>{{status}}</small>{{/status}}</td>
        <td>{{reportCount}}</td>
        <td>{{reasons}}</td>
        <td><a class="case-link" href="{{href}}">{{excerpt}}</a></td>
        </tr>
        {{/cases}}
        </tbody>
        </table>
        {{/hasCases}}
        {{#next}}<p><a href="{{next}}" id="next">More cases</a></p>{{/next}}
        """

    static let caseTemplate = """
        <h1>Case: reported {{subjectType}}</h1>
        <p class="summary">Opened {{opened}} ({{age}} ago) · {{reportCount}} report(s) · {{statusText}}{{#hidden}} · <span class="badge">hidden until decided</span>{{/hidden}}</p>
        <section>
        <h2>As reported</h2>
        <blockquote id="content">{{content}}</blockquote>
        <p><small>By {{owner}}{{#at}}, {{at}}{{/at}}</small></p>
        </section>
        {{#hasContext}}
        <section>
        <h2>Around it</h2>
        <ol id="context">
        {{#context}}<li{{#reported}} class="reported"{{/reported}}><b>{{name}}</b> <small>{{at}}</small><br>{{text}}</li>{{/context}}
        </ol>
        </section>
        {{/hasContext}}
        <section>
        <h2>Reports</h2>
        <p id="reasons">{{reasons}}</p>
        {{#notes}}<blockquote class="note">{{.}}</blockquote>{{/notes}}
        </section>
        <section>
        <h2>Decisions on this case</h2>
        {{^actions}}<p>None yet.</p>{{/actions}}
        <ul id="actions">{{#actions}}<li><b>{{action}}</b> by {{moderator}}, {{at}}{{#until}} until {{until}}{{/until}}: {{reason}}</li>{{/actions}}</ul>
        </section>
        <section>
        <h2>Earlier decisions about {{owner}}</h2>
        {{^history}}<p>None.</p>{{/history}}
        <ul id="history">{{#history}}<li><a href="{{href}}">{{action}}</a>, {{at}}{{#until}} until {{until}}{{/until}}: {{reason}}</li>{{/history}}</ul>
        </section>
        {{#open}}
        <section>
        <h2>Decide</h2>
        <form method="post" action="{{actionHref}}" id="decide">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>Action
        <select name="action" id="action">
        {{#choices}}<option value="{{value}}">{{label}}</option>{{/choices}}
        </select></label>
        <label id="suspend-length">Suspend for
        <select name="suspendDays" id="suspendDays">
        {{#lengths}}<option value="{{value}}">{{label}}</option>{{/lengths}}
        </select></label>
        <label id="remove-messages"><input type="checkbox" name="removeMessages" value="true" id="removeMessages"> also remove every chat message of theirs</label>
        <label>Reason (kept in the audit trail, and told to those concerned)
        <textarea name="reason" id="reason" required maxlength="500" rows="3"></textarea></label>
        <button type="submit" id="decide-button">Decide</button>
        </form>
        </section>
        {{/open}}
        """

    static let audit = """
        <h1>Audit trail</h1>
        {{^rows}}<p id="empty">No decisions yet.</p>{{/rows}}
        {{#hasRows}}
        <table id="audit">
        <thead><tr><th>When</th><th>Moderator</th><th>Action</th><th>Reason</th><th>Case</th></tr></thead>
        <tbody>
        {{#rows}}<tr><td>{{at}}</td><td>{{moderator}}</td><td>{{action}}{{#until}} until {{until}}{{/until}}</td><td>{{reason}}</td><td><a href="{{href}}">{{subjectType}}</a></td></tr>{{/rows}}
        </tbody>
        </table>
        {{/hasRows}}
        {{#next}}<p><a href="{{next}}" id="next">Older decisions</a></p>{{/next}}
        """

    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1c1c1e;background:#f5f5f7}
        header{display:flex;gap:1.5em;align-items:center;padding:.6em 1.2em;background:#1c1c1e;color:#fff}
        header a{color:#fff;margin-right:1em}header .inline{margin-left:auto}
        main{max-width:70em;margin:1.5em auto;padding:0 1.2em}
        table{border-collapse:collapse;width:100%;background:#fff}td,th{padding:.5em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
        tr.overdue{background:#fff4e5}.badge{background:#c62828;color:#fff;border-radius:.3em;padding:0 .4em;font-size:.8em}
        blockquote{background:#fff;border-left:4px solid #888;margin:.5em 0;padding:.5em 1em;white-space:pre-wrap}
        li.reported{background:#fff4e5}section{margin-bottom:1.5em}
        label{display:block;margin:.6em 0}textarea,input[type=email],input[type=password]{width:100%;max-width:40em;box-sizing:border-box}
        .error{background:#fdecea;border:1px solid #c62828;padding:.6em 1em}.hidden{display:none}
        """

    /// The suspension's length shows with `suspend` only, removing every message with suspend or ban;
    /// a ban, or removing every message, asks to be sure first.
    static let script = """
        (function(){
        var form=document.getElementById('decide');if(!form)return;
        var action=document.getElementById('action'),length=document.getElementById('suspend-length'),
        remove=document.getElementById('remove-messages'),removeBox=document.getElementById('removeMessages');
        function show(){var a=action.value;length.classList.toggle('hidden',a!=='suspend');
        remove.classList.toggle('hidden',a!=='suspend'&&a!=='ban');if(a!=='suspend'&&a!=='ban')removeBox.checked=false;}
        action.addEventListener('change',show);show();
        form.addEventListener('submit',function(e){var a=action.value;
        if((a==='ban'||removeBox.checked)&&!window.confirm(a==='ban'?'Ban this player for good?':'Remove every chat message of this player?'))e.preventDefault();});
        })();
        """
}
