// A front end written the way psibase's apps are (docs/serving.md §4.2): React and htm from the
// common files as globals and a module, GraphQL through useGraphQLQuery.mjs, a transaction built,
// signed and pushed with common-lib.js. The e2e test psibase-page.test.ts serves it from the
// tokens account's site.
import htm from "/common/htm.module.js";
import {
    getJson,
    getTaposForHeadBlock,
    postJsonGetArrayBuffer,
    signAndPushTransaction,
    uint8ArrayToHex,
} from "/common/common-lib.js";
import { useGraphQLPagedQuery, useGraphQLQuery } from "/common/useGraphQLQuery.mjs";

await import("/common/react.production.min.js");
await import("/common/react-dom.production.min.js");
const html = htm.bind(React.createElement);

const service = await getJson("/common/thisservice");

function Balance({ owner, refresh }) {
    const [result, invalidate] = useGraphQLQuery("/graphql", `{ balance(owner: "${owner}") { amount } }`);
    React.useEffect(() => {
        if (refresh) invalidate();
    }, [refresh]);
    if (result.isLoading) return html`<span data-loading="true">…</span>`;
    if (result.isError) return html`<span data-error="true">${JSON.stringify(result.errors)}</span>`;
    return html`<span data-balance=${owner}>${result.data.balance?.amount ?? "0"}</span>`;
}

function Holders() {
    const paged = useGraphQLPagedQuery(
        "/graphql",
        "{ balances(@page@) { edges { node { owner } } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }",
        { pageSize: 1, getPageInfo: (result) => result.data?.balances.pageInfo ?? null }
    );
    const owners = paged.result.data?.balances.edges.map((e) => e.node.owner) ?? [];
    return html`<div>
        <ul data-holders=${paged.result.isLoading ? "loading" : "ready"}>
            ${owners.map((owner) => html`<li key=${owner}>${owner}</li>`)}
        </ul>
        <button data-next disabled=${!paged.hasNextPage} onClick=${paged.next}>next</button>
    </div>`;
}

function App() {
    const [key, setKey] = React.useState("");
    const [to, setTo] = React.useState("");
    const [amount, setAmount] = React.useState("");
    const [status, setStatus] = React.useState(null);
    const [refresh, setRefresh] = React.useState(0);
    const transfer = async () => {
        try {
            const args = { to, amount, memo: "from a psibase-style page" };
            const rawData = uint8ArrayToHex(new Uint8Array(await postJsonGetArrayBuffer("/pack_action/transfer", args)));
            const tapos = { ...(await getTaposForHeadBlock()), flags: 0, expiration: new Date(Date.now() + 60_000) };
            const trace = await signAndPushTransaction("", { tapos, actions: [{ sender: "alice", service, method: "transfer", rawData }] }, [key]);
            setStatus({ ok: true, text: JSON.stringify(trace.actionTraces.length) });
            setRefresh((n) => n + 1);
        } catch (e) {
            setStatus({ ok: false, text: e.message });
        }
    };
    return html`<div>
        <h1>${service}</h1>
        <p>alice: <${Balance} owner="alice" refresh=${refresh} /></p>
        <${Holders} />
        <textarea id="key" value=${key} onChange=${(e) => setKey(e.target.value)}></textarea>
        <input id="to" value=${to} onChange=${(e) => setTo(e.target.value)} />
        <input id="amount" value=${amount} onChange=${(e) => setAmount(e.target.value)} />
        <button id="transfer" onClick=${transfer}>Transfer</button>
        ${status && html`<pre data-status=${status.ok ? "ok" : "error"}>${status.text}</pre>`}
    </div>`;
}

ReactDOM.createRoot(document.getElementById("root")).render(html`<${App} />`);
