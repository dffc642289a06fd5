<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name></name>
    <message>
        <location filename="../../gui/controls.py" line="209"/>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="210"/>
        <source>d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="211"/>
        <source>heads h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="212"/>
        <source>d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="213"/>
        <source>lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="214"/>
        <source>Keep d_model fixed: changing h changes d_k = d_model / h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="215"/>
        <source>Width of q and k; the slider moves in powers of 2^(1/8)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="216"/>
        <source>Number of heads; d_model = h · d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="217"/>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="221"/>
        <source>published shapes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="224"/>
        <source>{name}: {d} = {h} × {dk}, {layers} layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="227"/>
        <source>Scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="228"/>
        <source>2 to 16 numbers, e.g. 10, 1, 1, 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="229"/>
        <source>Scores separated by commas or spaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="233"/>
        <source>preset…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="234"/>
        <location filename="../../gui/controls.py" line="250"/>
        <source>uniform</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="235"/>
        <source>one large gap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="235"/>
        <source>random at current d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="238"/>
        <source>Sample q·k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="239"/>
        <source>Fill the scores with q·k_j sampled at the current d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="240"/>
        <source>Sampling and softmax</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="242"/>
        <source>÷√d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="242"/>
        <source>temperature T</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="242"/>
        <source>keys n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="242"/>
        <source>samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="243"/>
        <source>components</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="243"/>
        <source>σ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="243"/>
        <source>seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="243"/>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="243"/>
        <source>sequence (cost)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="245"/>
        <source>scale scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="246"/>
        <location filename="../../gui/panels/multihead_view.py" line="183"/>
        <source>causal mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="250"/>
        <source>normal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="251"/>
        <source>±1 (Rademacher)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="325"/>
        <source>d_model unlocked: {d} is not a multiple of d_k = {dk}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="327"/>
        <source>h lowered to {h} so that d_model stays ≤ {m}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="328"/>
        <source>h = {h} does not divide d_model = {d}; using h = {s}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="377"/>
        <source>Not applied: {reason}. Showing the last valid scores.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="195"/>
        <source>Softmax</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="195"/>
        <source>Variance of q·k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="196"/>
        <source>Saturation vs d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="196"/>
        <source>Multi-head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="197"/>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="197"/>
        <source>Head roles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="200"/>
        <source>Attention Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="201"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="202"/>
        <source>Export &amp;window…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="203"/>
        <source>Export &amp;panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="206"/>
        <source>{panel}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="207"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="208"/>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="210"/>
        <source>Copy {panel} image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="211"/>
        <source>&amp;Open session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="212"/>
        <source>&amp;Save session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="213"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="214"/>
        <source>&amp;Presentation mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="215"/>
        <source>Show &amp;controls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="216"/>
        <source>Show &amp;lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="217"/>
        <source>Larger text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="218"/>
        <source>Smaller text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="219"/>
        <source>Normal text size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="220"/>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="221"/>
        <source>High-contrast light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="222"/>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="223"/>
        <source>Colour-blind-safe colours (Okabe–Ito)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="224"/>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="227"/>
        <source>Lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="228"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="229"/>
        <source>&amp;About Attention Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="238"/>
        <source>computed in {ms:.1f} ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="243"/>
        <source>Computation failed: {m}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="252"/>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="262"/>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="264"/>
        <location filename="../../gui/main_window.py" line="463"/>
        <source>Saved {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="268"/>
        <source>Export window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="275"/>
        <source>Export panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="285"/>
        <source>Copied {panel} to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="290"/>
        <source>About Attention Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="291"/>
        <source>Attention Lab shows why attention divides scores by √d_k and how multi-head attention splits d_model into h heads. Every number is computed live.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="373"/>
        <source>Text size {p} %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="439"/>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="440"/>
        <location filename="../../gui/main_window.py" line="455"/>
        <source>Attention Lab session (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="446"/>
        <source>Cannot open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="447"/>
        <source>{file} was not opened: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="450"/>
        <source>Opened {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="454"/>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="461"/>
        <source>Cannot save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="18"/>
        <source>Q/K/V projections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="18"/>
        <source>QKᵀ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="19"/>
        <source>softmax</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="19"/>
        <source>weights · V</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="19"/>
        <source>W_O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="57"/>
        <source>cost of one attention layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="58"/>
        <source>FLOPs per layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="88"/>
        <source>1 head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="88"/>
        <source>{h} heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="89"/>
        <source>per head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="93"/>
        <source>n = {n} tokens
1 × {d}  vs  {h} × {dk}
W_O: {share:.1%} of FLOPs
params {p1} → {p2}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="88"/>
        <source>Multi-head attention with the engine&apos;s matrices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="171"/>
        <source>head {i}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="173"/>
        <source>X  ({n} × {d}) = {h} blocks of d_k = {dk}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="174"/>
        <source>concat of {h} head outputs of {n} × {dk}  →  {n} × {d}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="176"/>
        <source>output = concat · W_O  ({n} × {d})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="177"/>
        <source>W_O  ({d} × {d})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="179"/>
        <source>+{k} more heads not drawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="181"/>
        <source>attention: softmax(QKᵀ/√d_k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="181"/>
        <source>attention: softmax(QKᵀ), not scaled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="185"/>
        <source>matrices drawn at reduced width {w} ({hc} × {dc}); shapes and costs are exact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="76"/>
        <source>max p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="76"/>
        <source>entropy (nats)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="77"/>
        <source>‖J‖_F</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="80"/>
        <source>d_k (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="81"/>
        <source>raw q·k (median, quartiles)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="82"/>
        <location filename="../../gui/panels/variance_panel.py" line="52"/>
        <source>q·k / √d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="105"/>
        <source>saturation vs d_k ({n} keys, {t} queries per d_k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="54"/>
        <source>softmax: raw vs ÷√d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="55"/>
        <source>probability (H in nats)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="56"/>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="81"/>
        <source>raw{t}: H = {h}, max p = {m}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="84"/>
        <source>÷√{dk} = ÷{div}: H = {h}, max p = {m}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="50"/>
        <source>q·k: raw and ÷√d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="51"/>
        <source>q·k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="54"/>
        <source>density</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="74"/>
        <source>exact density</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="74"/>
        <source>normal approx.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="76"/>
        <source>raw, d_k = {dk}
Var = {var} ± {se}
theory d_k·σ⁴ = {th}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="80"/>
        <source>÷√d_k
Var = {var} ± {se}
theory σ⁴ = {th}
{n} samples, {kind}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="83"/>
        <source>the ±2σ² width that ÷√d_k restores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="82"/>
        <source>◀ Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="83"/>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="84"/>
        <location filename="../../gui/lesson_panel.py" line="139"/>
        <source>■ Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="84"/>
        <location filename="../../gui/lesson_panel.py" line="139"/>
        <source>▶ Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="85"/>
        <source>Previous step (PageUp, ←)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="86"/>
        <source>Next step (PageDown, →)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="87"/>
        <source>Animate this step&apos;s sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="88"/>
        <source>offset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="89"/>
        <source>gap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="168"/>
        <source>Step {i} / {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="173"/>
        <source>computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="86"/>
        <source>{name}: {layers} layers × {heads} heads = {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="145"/>
        <source>Dot products grow with d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="146"/>
        <source>q and k have d_k independent components of variance 1. Each product q_i·k_i has variance 1, so their sum q·k has variance d_k. Now, at d_k = {dk}, the sampled variance is {var} ± {se}; theory says {theory}. Press Play to sweep d_k from 4 to 4096: the raw histogram&apos;s axis widens while the scaled one keeps variance {var_scaled}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="150"/>
        <source>Softmax saturates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="151"/>
        <source>Scores ({scores}) give the top key p = {p_raw}. Move the offset: all scores shift together and p does not change, because softmax only sees differences. (10, 1, 1, 1) and (100, 91, 91, 91) give identical probabilities. Move the gap: p heads for 1. What saturates softmax is the spread, and the spread of q·k grows like √d_k. Divided by √{dk}, the same scores give p = {p_scaled}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="156"/>
        <source>Gradients vanish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="157"/>
        <source>The softmax Jacobian J = diag(p) − ppᵀ says how far the output moves when a score moves; for one-hot p it is zero. Median ‖J‖_F over random queries with {keys} keys, unscaled: {j1} at d_k = 1 and {jdk} at d_k = {grid_dk}, where the top key already takes p = {p_dk}. A vanishing Jacobian means a vanishing training signal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="161"/>
        <source>Dividing by √d_k fixes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="162"/>
        <source>Divided by √d_k, the scores have variance 1 at every width. Across d_k = 1 … {top} the scaled median ‖J‖_F stays between {jlo} and {jhi}, and max p between {plo} and {phi}; unscaled, ‖J‖_F falls to {jraw_max} at d_k = {top}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="165"/>
        <source>One head, one distribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="166"/>
        <source>A head gives each token one probability distribution over the others. When several relations matter at once, one head has to blend them. On the sentence in the panel ({n} tokens) the heads have a mean entropy of {each} nats; their average has {avg} nats (uniform attention: {uni}). Averaging blurs sharp roles.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="170"/>
        <source>Split, attend, concatenate, project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="171"/>
        <source>d_model = {d} is split into h = {h} heads of d_k = {dk}. Each head makes its own Q, K and V ({n} × {dk}), attends, and returns {n} × {dk}. The outputs are concatenated back to {n} × {d}, and W_O, a full {d} × {d} matrix, mixes the heads. Play steps h through 1, 2, 4, 8, 16.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="175"/>
        <source>Heads specialise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="176"/>
        <source>Trained heads often take on roles: one looks at the previous token, another links a pronoun to its noun. The heads shown are built by hand from simple rules to show what such roles look like; they are not learned. Switch on random heads to compare with untrained, seeded attention. The heads shown now have a mean entropy of {each} nats (uniform: {uni}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="181"/>
        <source>The cost stays the same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="182"/>
        <source>For n = {n} tokens, QKᵀ and weights·V cost {qk} FLOPs with h = {h} heads, the same as one full-width head ({qk1}). Softmax grows with h ({sm} against {sm1}) but stays small. W_O adds {wo} FLOPs, {share} of the layer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="185"/>
        <source>Layers × heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="186"/>
        <source>Each layer has its own heads, so a model holds layers × heads attention patterns:&lt;br&gt;{table}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="188"/>
        <source>A common mistake: √d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="189"/>
        <source>Dividing by √d_model = {sdm} instead of √d_k = {sdk} leaves each head&apos;s scores with variance {v_bad} instead of {v_ok} (about d_k / d_model = {ratio}). Attention goes flat: mean entropy {h_bad} nats against {h_ok} (uniform is {h_uni}), mean max p {p_bad} against {p_ok}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="45"/>
        <source>previous token</source>
        <extracomment>Longest token label drawn, in pixels; longer ones are elided.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="46"/>
        <source>next token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="47"/>
        <source>first token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="48"/>
        <source>same word</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="49"/>
        <source>punctuation → whole sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="50"/>
        <source>pronoun → nearest preceding noun</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="306"/>
        <source>random heads (seeded, untrained)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="309"/>
        <source>hand-built heads (rules, not learned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="315"/>
        <source>random head {i}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="318"/>
        <source>average of the {h} heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="321"/>
        <source>Type a sentence above to see the heads.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="327"/>
        <source>entropy of the average: {avg} nats vs mean per-head entropy: {mean} nats (max ln {n} = {max})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="331"/>
        <source>averaging blurs the roles (entropy is concave: H(average) ≥ mean H(head))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="333"/>
        <source>showing the first {k} tokens; {d} more not drawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="427"/>
        <source>Sentence:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="428"/>
        <source>type a sentence in English or Japanese</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="429"/>
        <source>At most {n} tokens are drawn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="430"/>
        <source>Tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="431"/>
        <source>English words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="431"/>
        <source>Japanese characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="432"/>
        <source>Japanese words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="435"/>
        <source>random heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="436"/>
        <source>Replace the hand-built heads by seeded random, untrained heads: softmax(QKᵀ/√d_k) on random X, W_Q, W_K.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="438"/>
        <source>seed:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
