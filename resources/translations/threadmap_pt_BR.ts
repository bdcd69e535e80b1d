<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pt_BR">
<context>
    <name>BankView</name>
    <message>
        <source>Shared-memory banks (%1 x %2 bytes)</source>
        <translation>Bancos da memória compartilhada (%1 x %2 bytes)</translation>
    </message>
    <message>
        <source>This kernel makes no shared-memory accesses.</source>
        <translation>Este kernel não acessa a memória compartilhada.</translation>
    </message>
    <message>
        <source>1 wavefront</source>
        <translation>1 frente de onda</translation>
    </message>
    <message>
        <source>%1 wavefronts</source>
        <translation>%1 frentes de onda</translation>
    </message>
    <message>
        <source>%1 (ideal %2): %3 replays</source>
        <translation>%1 (ideal %2): %3 repetições</translation>
    </message>
    <message>
        <source>serving wavefront %1 of %2</source>
        <translation>atendendo a frente de onda %1 de %2</translation>
    </message>
    <message>
        <source>bank</source>
        <translation>banco</translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>linha %1</translation>
    </message>
    <message>
        <source>%1 (ideal %2): 1 replay</source>
        <translation>%1 (ideal %2): 1 repetição</translation>
    </message>
    <message>
        <source>shared array</source>
        <translation>vetor compartilhado</translation>
    </message>
    <message>
        <source>store</source>
        <translation>escrita</translation>
    </message>
    <message>
        <source>load</source>
        <translation>leitura</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>non-shared</source>
        <translation>não compartilhada</translation>
    </message>
    <message numerus="yes">
        <source>This step is a %1 %2; shared accesses: %n request(s), %3 wavefronts (ideal %4), %5 so far.</source>
        <translation>
            <numerusform>Este passo é uma %2 %1; acessos compartilhados: %n requisição, %3 frentes de onda (ideal %4), %5 até agora.</numerusform>
            <numerusform>Este passo é uma %2 %1; acessos compartilhados: %n requisições, %3 frentes de onda (ideal %4), %5 até agora.</numerusform>
        </translation>
    </message>
    <message>
        <source>block %1 warp %2, line %3 %4</source>
        <translation>bloco %1 warp %2, linha %3 %4</translation>
    </message>
    <message>
        <source>wavefronts so far %1 / %2 (ideal %3)</source>
        <translation>frentes de onda até agora %1 / %2 (ideal %3)</translation>
    </message>
    <message>
        <source>padding hatched</source>
        <translation>preenchimento hachurado</translation>
    </message>
    <message>
        <source>rows %1–%2</source>
        <translation>linhas %1–%2</translation>
    </message>
    <message>
        <source>bank %1 of %2</source>
        <translation>%1 de %2 nos bancos</translation>
    </message>
    <message>
        <source>bank %1 of the %2 rows the request touches</source>
        <translation>%1 das %2 linhas que a requisição toca</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>%1 of %2 touched</source>
        <translation>%1 de %2 tocadas</translation>
    </message>
    <message>
        <source>shared offset %1</source>
        <translation>deslocamento compartilhado %1</translation>
    </message>
    <message>
        <source>thread %1</source>
        <translation>thread %1</translation>
    </message>
    <message>
        <source>%1 writes it, line %2</source>
        <translation>%1 escreve, linha %2</translation>
    </message>
    <message>
        <source>%1 reads it, line %2</source>
        <translation>%1 lê, linha %2</translation>
    </message>
    <message>
        <source>shared offset %1: in no array</source>
        <translation>offset compartilhado %1: em nenhum array</translation>
    </message>
    <message>
        <source>shared offset %1 (bank %2, row %3): in no array</source>
        <translation>offset compartilhado %1 (banco %2, linha %3): em nenhum array</translation>
    </message>
    <message>
        <source>%1 writes there, line %2</source>
        <translation>%1 escreve ali, linha %2</translation>
    </message>
    <message>
        <source>%1 reads there, line %2</source>
        <translation>%1 lê ali, linha %2</translation>
    </message>
    <message>
        <source>(and 1 more lane of its warp)</source>
        <translation>(e mais 1 lane do seu warp)</translation>
    </message>
    <message>
        <source>(and %1 more lanes of its warp)</source>
        <translation>(e mais %1 lanes do seu warp)</translation>
    </message>
</context>
<context>
    <name>BarrierView</name>
    <message>
        <source>barrier </source>
        <translation>barreira </translation>
    </message>
    <message>
        <source>Which of the block&apos;s barriers to show</source>
        <translation>Qual das barreiras do bloco mostrar</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> de %1</translation>
    </message>
    <message>
        <source>Barrier: block %1</source>
        <translation>Barreira: bloco %1</translation>
    </message>
    <message>
        <source>Block %1 recorded no barrier: this kernel has no __syncthreads / barrier().</source>
        <translation>O bloco %1 não gravou nenhuma barreira: este kernel não tem __syncthreads / barrier().</translation>
    </message>
    <message>
        <source>, line %1</source>
        <translation>, linha %1</translation>
    </message>
    <message>
        <source>slowest: warp %1 (last of %2)</source>
        <translation>mais lento: warp %1 (último de %2)</translation>
    </message>
    <message>
        <source>released</source>
        <translation>liberado</translation>
    </message>
    <message>
        <source>warp %1</source>
        <translation>warp %1</translation>
    </message>
    <message>
        <source>%1 after the first arrival</source>
        <translation>%1 após a primeira chegada</translation>
    </message>
    <message>
        <source>arrival order (this device records no clock)</source>
        <translation>ordem de chegada (este dispositivo não grava relógio)</translation>
    </message>
    <message>
        <source>green: each warp&apos;s recorded release, all after the last of %1 arrivals</source>
        <translation>verde: liberação gravada de cada warp, todas após a última de %1 chegadas</translation>
    </message>
    <message>
        <source>every warp released after all %1 arrived (each saw every arrival)</source>
        <translation>cada warp foi liberado depois que todos os %1 chegaram (cada um viu todas as chegadas)</translation>
    </message>
    <message>
        <source>a warp was released before all arrived: inconsistent recording</source>
        <translation>um warp foi liberado antes de todos chegarem: gravação inconsistente</translation>
    </message>
    <message>
        <source>clock64 cycles</source>
        <translation>ciclos de clock64</translation>
    </message>
    <message>
        <source>slowest: warp %1 (+%2)</source>
        <translation>o mais lento: warp %1 (+%2)</translation>
    </message>
    <message>
        <source>%1 cycles (%2 ns)</source>
        <translation>%1 ciclos (%2 ns)</translation>
    </message>
    <message>
        <source>%1 cycles</source>
        <translation>%1 ciclos</translation>
    </message>
    <message>
        <source>clock-only run, %1 MHz</source>
        <translation>execução só com relógio, %1 MHz</translation>
    </message>
    <message>
        <source>clock-only run</source>
        <translation>execução só com relógio</translation>
    </message>
    <message>
        <source>traced run</source>
        <translation>execução rastreada</translation>
    </message>
    <message>
        <source>arrival order only</source>
        <translation>só a ordem de chegada</translation>
    </message>
    <message>
        <source>%1 passes in %2 blocks (%3): warp %4 last in %5%</source>
        <translation>%1 passagens em %2 blocos (%3): warp %4 por último em %5%</translation>
    </message>
    <message>
        <source>arrival spread: median %1, widest %2; this pass %3 (wider than %4%)</source>
        <translation>dispersão das chegadas: mediana %1, máxima %2; esta passagem %3 (maior que %4%)</translation>
    </message>
    <message>
        <source>arrival spread: median %1 places, widest %2</source>
        <translation>dispersão das chegadas: mediana %1 posições, máxima %2</translation>
    </message>
    <message>
        <source>release after the last arrival: median %1, max %2; this pass %3</source>
        <translation>liberação após a última chegada: mediana %1, máxima %2; esta passagem %3</translation>
    </message>
    <message>
        <source>%1 of %2 warps never arrived: a barrier in divergent code</source>
        <translation>%1 de %2 warps nunca chegaram: uma barreira em código divergente</translation>
    </message>
    <message>
        <source>the %1 warps that arrived were let go without the others: a barrier not every warp reaches is undefined behaviour</source>
        <translation>os %1 warps que chegaram foram liberados sem os outros: uma barreira que nem todo warp alcança é comportamento indefinido</translation>
    </message>
    <message>
        <source>warp %1 never arrived</source>
        <translation>o warp %1 nunca chegou</translation>
    </message>
    <message>
        <source>warps %1–%2 never arrived</source>
        <translation>os warps %1–%2 nunca chegaram</translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>Copy (bandwidth ceiling)</source>
        <translation>Cópia (teto de largura de banda)</translation>
    </message>
    <message>
        <source>A plain copy with the coalesced kernel&apos;s tiling and 16-byte strips: both sides coalesced. Every transpose chart measures against it.</source>
        <translation>Uma cópia simples com os ladrilhos e as faixas de 16 bytes do kernel coalescido: os dois lados coalescidos. Todo gráfico de transposição se mede contra ela.</translation>
    </message>
    <message>
        <source>Naive transpose</source>
        <translation>Transposição ingênua</translation>
    </message>
    <message>
        <source>Thread x walks down the rows: every read is strided (one sector per thread), every write coalesced.</source>
        <translation>A thread x desce pelas linhas: toda leitura é espaçada (um setor por thread), toda escrita é coalescida.</translation>
    </message>
    <message>
        <source>Shared-memory tile (lesson)</source>
        <translation>Ladrilho em memória compartilhada (lição)</translation>
    </message>
    <message>
        <source>tile[T][T+P] with the lessons&apos; mapping: i still comes from thread x, so BOTH global sides are strided and it runs slower than naive on a GPU. P=0 the OpenCL lesson (column reads conflict), P=1 the CUDA lesson (no conflicts).</source>
        <translation>tile[T][T+P] com o mapeamento das lições: i ainda vem da thread x, então OS DOIS lados globais são espaçados e ele roda mais devagar que o ingênuo numa GPU. P=0 é a lição de OpenCL (as leituras por coluna conflitam), P=1 a lição de CUDA (sem conflitos).</translation>
    </message>
    <message>
        <source>Dynamic shared-memory tile (lesson)</source>
        <translation>Ladrilho dinâmico em memória compartilhada (lição)</translation>
    </message>
    <message>
        <source>The CUDA lesson&apos;s extern __shared__ tile sized at launch (T*T elements, no padding): the same mapping and the same strided global accesses.</source>
        <translation>O ladrilho extern __shared__ da lição de CUDA, dimensionado no lançamento (T*T elementos, sem padding): o mesmo mapeamento e os mesmos acessos globais espaçados.</translation>
    </message>
    <message>
        <source>Coalesced transpose</source>
        <translation>Transposição coalescida</translation>
    </message>
    <message>
        <source>The corrected mapping: thread x walks contiguous addresses on the read and on the write; the swap happens in the padded tile. Each thread moves 16-byte strips (4 ints or floats, 2 doubles), S of them, all loaded before the first store.</source>
        <translation>O mapeamento corrigido: a thread x percorre endereços contíguos na leitura e na escrita; a troca acontece no ladrilho com padding. Cada thread move S faixas de 16 bytes (4 ints ou floats, 2 doubles), todas lidas antes da primeira escrita.</translation>
    </message>
    <message>
        <source>One thread per row</source>
        <translation>Uma thread por linha</translation>
    </message>
    <message>
        <source>The CPU habit: each thread walks its own row, so a warp touches 32 rows at each step: uncoalesced.</source>
        <translation>O hábito da CPU: cada thread percorre a sua linha, então um warp toca 32 linhas a cada passo: não coalescido.</translation>
    </message>
    <message>
        <source>One thread per column</source>
        <translation>Uma thread por coluna</translation>
    </message>
    <message>
        <source>Each thread walks down a column: a warp touches 32 neighbours of one row, coalesced, but there are only `width` threads.</source>
        <translation>Cada thread desce por uma coluna: um warp toca 32 vizinhos de uma linha, coalescido, mas há só `width` threads.</translation>
    </message>
    <message>
        <source>K elements per thread</source>
        <translation>K elementos por thread</translation>
    </message>
    <message>
        <source>A 2-D grid, x fastest: coalesced and enough threads to fill the device. K=1 is one thread per element; with K=2 each thread loads two pairs before it stores, and twice the loads are in flight.</source>
        <translation>Uma grade 2-D, x mais rápido: coalescido e com threads suficientes para encher o dispositivo. K=1 é uma thread por elemento; com K=2 cada thread lê dois pares antes de escrever, e há o dobro de leituras em andamento.</translation>
    </message>
    <message>
        <source>Interleaved tree (lesson)</source>
        <translation>Árvore intercalada (lição)</translation>
    </message>
    <message>
        <source>The lesson&apos;s tree: idx = 2*stride*lid. Active threads spread out and shared accesses conflict more at every step.</source>
        <translation>A árvore da lição: idx = 2*stride*lid. As threads ativas se espalham e os acessos compartilhados conflitam mais a cada passo.</translation>
    </message>
    <message>
        <source>Divergent tree</source>
        <translation>Árvore divergente</translation>
    </message>
    <message>
        <source>if (lid % (2*stride) == 0): the same pairs, but the active threads are scattered over all warps, which diverge.</source>
        <translation>if (lid % (2*stride) == 0): os mesmos pares, mas as threads ativas ficam espalhadas por todos os warps, que divergem.</translation>
    </message>
    <message>
        <source>Sequential addressing</source>
        <translation>Endereçamento sequencial</translation>
    </message>
    <message>
        <source>The stride halves from wg/2: active threads are contiguous, whole warps retire, no bank conflicts.</source>
        <translation>O passo cai pela metade a partir de wg/2: as threads ativas são contíguas, warps inteiros terminam, sem conflitos de banco.</translation>
    </message>
    <message>
        <source>Grid-stride + warp shuffles</source>
        <translation>Passo de grade + shuffles de warp</translation>
    </message>
    <message>
        <source>More work per thread (a grid-stride sum), a shared-memory tree down to one warp, then shuffles: the one to aim at.</source>
        <translation>Mais trabalho por thread (uma soma com passo de grade), uma árvore em memória compartilhada até um warp, depois shuffles: a meta a alcançar.</translation>
    </message>
    <message>
        <source>Store and load along rows: 1 wavefront each.</source>
        <translation>Escrita e leitura ao longo das linhas: 1 frente de onda cada.</translation>
    </message>
    <message>
        <source>Store and load along columns: 32-way conflicts both ways.</source>
        <translation>Escrita e leitura ao longo das colunas: conflitos de 32 vias nos dois sentidos.</translation>
    </message>
    <message>
        <source>Store by rows (free), load by columns (32-way conflicts).</source>
        <translation>Escrita por linhas (livre), leitura por colunas (conflitos de 32 vias).</translation>
    </message>
    <message>
        <source>setRowReadCol with a dynamically sized tile: the same conflicts.</source>
        <translation>setRowReadCol com um ladrilho de tamanho dinâmico: os mesmos conflitos.</translation>
    </message>
    <message>
        <source>One word of padding per row: the column load becomes conflict-free.</source>
        <translation>Uma palavra de padding por linha: a leitura por coluna fica sem conflitos.</translation>
    </message>
    <message>
        <source>Padding in the dynamic tile&apos;s index arithmetic: conflict-free.</source>
        <translation>Padding na aritmética de índices do ladrilho dinâmico: sem conflitos.</translation>
    </message>
    <message>
        <source>A 32 x 16 tile read by columns: 16-way conflicts.</source>
        <translation>Um ladrilho de 32 x 16 lido por colunas: conflitos de 16 vias.</translation>
    </message>
    <message>
        <source>The rectangular column read with a dynamic tile: 16-way conflicts.</source>
        <translation>A leitura retangular por colunas com um ladrilho dinâmico: conflitos de 16 vias.</translation>
    </message>
    <message>
        <source>Rectangular tile padded by P: pad 1 leaves 2-way conflicts, pad 2 none.</source>
        <translation>Ladrilho retangular com padding P: pad 1 deixa conflitos de 2 vias, pad 2 nenhum.</translation>
    </message>
    <message>
        <source>Dynamic rectangular tile padded by P in the index arithmetic.</source>
        <translation>Ladrilho retangular dinâmico com padding P na aritmética de índices.</translation>
    </message>
    <message>
        <source>matrix width (columns of the input)</source>
        <translation>largura da matriz (colunas da entrada)</translation>
    </message>
    <message>
        <source>matrix height (rows of the input)</source>
        <translation>altura da matriz (linhas da entrada)</translation>
    </message>
    <message>
        <source>tile edge T of the T x T tile one block moves</source>
        <translation>lado T do ladrilho T x T que um bloco move</translation>
    </message>
    <message>
        <source>16-byte strips S each thread moves (V = 4 ints or floats or 2 doubles per strip; a T/V x T/S block)</source>
        <translation>faixas S de 16 bytes que cada thread move (V = 4 ints ou floats ou 2 doubles por faixa; um bloco T/V x T/S)</translation>
    </message>
    <message>
        <source>element type (double shows 8-byte bank behaviour)</source>
        <translation>tipo dos elementos (double mostra o comportamento dos bancos com 8 bytes)</translation>
    </message>
    <message>
        <source>tile edge T: a T x T block of threads per tile</source>
        <translation>lado T do ladrilho: um bloco de T x T threads por ladrilho</translation>
    </message>
    <message>
        <source>elements of padding P added to each tile row</source>
        <translation>elementos de padding P somados a cada linha do ladrilho</translation>
    </message>
    <message>
        <source>work-group size (threads per block)</source>
        <translation>tamanho do grupo de trabalho (threads por bloco)</translation>
    </message>
    <message>
        <source>threads per block along x (the fastest index)</source>
        <translation>threads por bloco ao longo de x (o índice mais rápido)</translation>
    </message>
    <message>
        <source>threads per block along y</source>
        <translation>threads por bloco ao longo de y</translation>
    </message>
    <message>
        <source>elements K each thread adds, a block-width apart along the row</source>
        <translation>elementos K que cada thread soma, a uma largura de bloco de distância ao longo da linha</translation>
    </message>
    <message>
        <source>number of elements to sum</source>
        <translation>número de elementos a somar</translation>
    </message>
    <message>
        <source>blocks in the first pass&apos;s grid</source>
        <translation>blocos na grade da primeira passada</translation>
    </message>
    <message>
        <source>blocks in the grid, each writing its own slice</source>
        <translation>blocos na grade, cada um escrevendo a sua fatia</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 a %2</translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <translation>%1 ou %2</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>um de %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Columns, lanes sharing them (simd)</source>
        <translation>Colunas, repartidas entre as lanes (simd)</translation>
    </message>
    <message>
        <source>The column loop as `parallel for simd`: under GCC, whose OpenMP thread is a whole warp, the columns an OpenMP thread holds go to neighbouring lanes: as many lanes share a request as the thread holds columns (at most 32), few where the matrix is narrow.</source>
        <translation>O laço de colunas como `parallel for simd`: com o GCC, cujo thread OpenMP é um warp inteiro, as colunas que um thread OpenMP recebe vão para lanes vizinhas: tantas lanes dividem uma requisição quantas colunas o thread recebe (no máximo 32), poucas onde a matriz é estreita.</translation>
    </message>
    <message>
        <source>Rows, each shared by a warp&apos;s lanes (simd)</source>
        <translation>Linhas, cada uma repartida entre as lanes de um warp (simd)</translation>
    </message>
    <message>
        <source>The row loop over the OpenMP threads, each row&apos;s elements over the lanes of its warp (`omp simd`): coalesced under GCC, and every warp streams its own row.</source>
        <translation>O laço das linhas sobre as threads OpenMP, os elementos de cada linha sobre as lanes do seu warp (`omp simd`): coalescido no GCC, e cada warp percorre a sua própria linha.</translation>
    </message>
</context>
<context>
    <name>CoalescingView</name>
    <message>
        <source>Coalescing: 32-byte sectors per request</source>
        <translation>Coalescência: setores de 32 bytes por requisição</translation>
    </message>
    <message>
        <source>This kernel makes no global accesses in the traced blocks.</source>
        <translation>Este kernel não faz acessos globais nos blocos rastreados.</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>sectors of %1 by address, %2 bytes apart</source>
        <translation>setores de %1 por endereço, a %2 bytes de distância</translation>
    </message>
    <message>
        <source>sectors of %1 by address (bytes used of 32)</source>
        <translation>setores de %1 por endereço (bytes usados de 32)</translation>
    </message>
    <message>
        <source>line %1: %2 per request (%3 in %4), ideal %5</source>
        <translation>linha %1: %2 por requisição (%3 em %4), ideal %5</translation>
    </message>
    <message>
        <source>kernel so far: %1 / %2 sectors, ideal %3</source>
        <translation>kernel até agora: %1 / %2 setores, ideal %3</translation>
    </message>
    <message numerus="yes">
        <source>%n sector(s) for this request, ideal %1</source>
        <translation>
            <numerusform>%n setor para esta requisição, ideal %1</numerusform>
            <numerusform>%n setores para esta requisição, ideal %1</numerusform>
        </translation>
    </message>
    <message>
        <source>store</source>
        <translation>escrita</translation>
    </message>
    <message>
        <source>load</source>
        <translation>leitura</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>compartilhada</translation>
    </message>
    <message>
        <source>non-global</source>
        <translation>não global</translation>
    </message>
    <message>
        <source>This step is a %1 %2; global accesses: %3 sectors (ideal %4), %5 so far.</source>
        <translation>Este passo é uma %2 %1; acessos globais: %3 setores (ideal %4), %5 até agora.</translation>
    </message>
    <message>
        <source>line %1 %2 of %3</source>
        <translation>linha %1 %2 de %3</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Compare two recordings</source>
        <translation>Comparar duas gravações</translation>
    </message>
    <message>
        <source>Two recordings of one lesson family, side by side in the same trace view, stepping together by warp request.</source>
        <translation>Duas gravações de uma mesma família de lições, lado a lado na mesma visão do rastro, avançando juntas por requisição de warp.</translation>
    </message>
    <message>
        <source>Other file…</source>
        <translation>Outro arquivo…</translation>
    </message>
    <message>
        <source>Compare a recording</source>
        <translation>Comparar uma gravação</translation>
    </message>
    <message>
        <source>&amp;Left</source>
        <translation>&amp;Esquerda</translation>
    </message>
    <message>
        <source>&amp;Right</source>
        <translation>&amp;Direita</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Grid</source>
        <translation>Grade</translation>
    </message>
    <message>
        <source>Banks</source>
        <translation>Bancos</translation>
    </message>
    <message>
        <source>Barrier</source>
        <translation>Barreira</translation>
    </message>
    <message>
        <source>Coalescing</source>
        <translation>Coalescência</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Escalonamento</translation>
    </message>
    <message>
        <source>both recordings need a trace to compare</source>
        <translation>as duas gravações precisam de um rastro para comparar</translation>
    </message>
    <message>
        <source>nothing at this step</source>
        <translation>nada neste passo</translation>
    </message>
    <message>
        <source>block %1 warp %2 · request %3 of %4</source>
        <translation>bloco %1 warp %2 · requisição %3 de %4</translation>
    </message>
    <message>
        <source>Compare… (F7) puts two recordings of a family here, side by side, stepping together; so does &lt;code&gt;threadmap A.threadmap B.threadmap&lt;/code&gt;.</source>
        <translation>Comparar… (F7) coloca aqui duas gravações de uma família, lado a lado, avançando juntas; &lt;code&gt;threadmap A.threadmap B.threadmap&lt;/code&gt; também.</translation>
    </message>
    <message>
        <source>Side by side, stepping together through the same block and warp at corresponding sites: %1 against %2</source>
        <translation>Lado a lado, avançando juntos pelo mesmo bloco e warp nos pontos de acesso correspondentes: %1 contra %2</translation>
    </message>
</context>
<context>
    <name>ControlsPage</name>
    <message>
        <source>&amp;Kernels (Ctrl+K)</source>
        <translation>&amp;Kernels (Ctrl+K)</translation>
    </message>
    <message>
        <source>Show the controls (F9)</source>
        <translation>Mostrar os controles (F9)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Execução</translation>
    </message>
    <message>
        <source>&amp;Device</source>
        <translation>&amp;Dispositivo</translation>
    </message>
    <message>
        <source>&amp;Repetitions</source>
        <translation>&amp;Repetições</translation>
    </message>
    <message>
        <source>&amp;Traced blocks</source>
        <translation>Blocos ras&amp;treados</translation>
    </message>
    <message>
        <source>auto (asking the worker …)</source>
        <translation>automático (perguntando ao executor …)</translation>
    </message>
    <message>
        <source>timed repetitions: the median, min and max are shown</source>
        <translation>repetições cronometradas: são mostrados a mediana, o mínimo e o máximo</translation>
    </message>
    <message>
        <source>default</source>
        <translation>padrão</translation>
    </message>
    <message>
        <source>blocks Record trace (Ctrl+R) follows: empty for the first two blocks of the first two grid rows, &quot;all&quot;, or linear block ids such as 0, 1, 64 (id = x + grid width * y)</source>
        <translation>blocos que Gravar rastro (Ctrl+R) acompanha: vazio para os dois primeiros blocos das duas primeiras linhas da grade, &quot;all&quot; para todos, ou ids lineares de bloco como 0, 1, 64 (id = x + largura da grade * y)</translation>
    </message>
    <message>
        <source>Parameters (Ctrl+P)</source>
        <translation>Parâmetros (Ctrl+P)</translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation>Executar (F5)</translation>
    </message>
    <message>
        <source>Sweep (F6)</source>
        <translation>Varrer (F6)</translation>
    </message>
    <message>
        <source>the parameter a sweep varies, over all its allowed values</source>
        <translation>o parâmetro que a varredura varia, em todos os seus valores permitidos</translation>
    </message>
    <message>
        <source>%1: unavailable (%2)</source>
        <translation>%1: indisponível (%2)</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation> em %1</translation>
    </message>
</context>
<context>
    <name>ExercisePanel</name>
    <message>
        <source>Run (F5)</source>
        <translation>Executar (F5)</translation>
    </message>
    <message>
        <source>compile the text for the picked device, verify, time and trace it</source>
        <translation>compila o texto para o dispositivo escolhido, e o verifica, cronometra e rastreia</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Restaurar</translation>
    </message>
    <message>
        <source>back to the lesson&apos;s version of the text (Ctrl+Z undoes it)</source>
        <translation>volta à versão do texto da lição (Ctrl+Z desfaz)</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Lado a lado</translation>
    </message>
    <message>
        <source>record the lesson&apos;s kernel too and show both recordings side by side</source>
        <translation>grava também o kernel da lição e mostra as duas gravações lado a lado</translation>
    </message>
    <message>
        <source>Before you press F5: what will the trace show? Leave a field at &quot;none&quot; to skip it.</source>
        <translation>Antes de pressionar F5: o que o rastro vai mostrar? Deixe um campo em &quot;nenhum&quot; para ignorá-lo.</translation>
    </message>
    <message>
        <source>&amp;Wavefronts per shared-memory request</source>
        <translation>&amp;Frentes de onda por requisição de memória compartilhada</translation>
    </message>
    <message>
        <source>&amp;Sectors per global-memory request</source>
        <translation>&amp;Setores por requisição de memória global</translation>
    </message>
    <message>
        <source>Against the starting &amp;kernel</source>
        <translation>Comparado ao kernel &amp;inicial</translation>
    </message>
    <message>
        <source>Stop the run &amp;after (s)</source>
        <translation>&amp;Parar a execução após (s)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nenhum</translation>
    </message>
    <message>
        <source>no prediction</source>
        <translation>sem previsão</translation>
    </message>
    <message>
        <source>faster</source>
        <translation>mais rápido</translation>
    </message>
    <message>
        <source>slower</source>
        <translation>mais lento</translation>
    </message>
    <message>
        <source>a kernel that runs longer is stopped: the worker is restarted, your text stays</source>
        <translation>um kernel que roda por mais tempo é interrompido: o executor é reiniciado, o seu texto é mantido</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tarefa</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Previsão</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <source>Press F5 to compile and run your kernel on the picked device.</source>
        <translation>Pressione F5 para compilar e executar o seu kernel no dispositivo escolhido.</translation>
    </message>
    <message>
        <source>Free editing: %1</source>
        <translation>Edição livre: %1</translation>
    </message>
    <message>
        <source>Free editing</source>
        <translation>Edição livre</translation>
    </message>
    <message>
        <source>an exercise (✔ goal met, … attempted), or free editing of the selected kernel</source>
        <translation>um exercício (✔ meta atingida, … tentado), ou edição livre do kernel selecionado</translation>
    </message>
    <message>
        <source>&lt;b&gt;Your copy of %1&lt;/b&gt; (%2). Change it, press F5, and see what your threads did: the Trace tab (Ctrl+4) shows the recording. The catalog&apos;s version is not touched.</source>
        <translation>&lt;b&gt;Sua cópia de %1&lt;/b&gt; (%2). Altere-a, pressione F5 e veja o que as suas threads fizeram: a aba Rastro (Ctrl+4) mostra a gravação. A versão do catálogo não é alterada.</translation>
    </message>
    <message>
        <source>Select a kernel, then Exercise ▸ Edit this kernel.</source>
        <translation>Selecione um kernel e depois Exercício ▸ Editar este kernel.</translation>
    </message>
    <message>
        <source>, and </source>
        <translation> e </translation>
    </message>
    <message>
        <source>Show a hint (%1 of %2)</source>
        <translation>Mostrar uma dica (%1 de %2)</translation>
    </message>
    <message numerus="yes">
        <source>Goal met (%n attempt(s)).</source>
        <translation>
            <numerusform>Meta atingida (%n tentativa).</numerusform>
            <numerusform>Meta atingida (%n tentativas).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Attempted %n time(s); the goal is not met yet.</source>
        <translation>
            <numerusform>Tentado %n vez; a meta ainda não foi atingida.</numerusform>
            <numerusform>Tentado %n vezes; a meta ainda não foi atingida.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>Não iniciado.</translation>
    </message>
    <message>
        <source>bank conflicts on loads</source>
        <translation>conflitos de banco nas leituras</translation>
    </message>
    <message>
        <source>bank conflicts on stores</source>
        <translation>conflitos de banco nas escritas</translation>
    </message>
    <message>
        <source>extra sectors read</source>
        <translation>setores lidos a mais</translation>
    </message>
    <message>
        <source>extra sectors written</source>
        <translation>setores escritos a mais</translation>
    </message>
    <message>
        <source>the output is verified</source>
        <translation>a saída é verificada</translation>
    </message>
    <message>
        <source>at most %1 bank conflicts on shared-memory loads</source>
        <translation>no máximo %1 conflitos de banco nas leituras da memória compartilhada</translation>
    </message>
    <message>
        <source>at most %1 bank conflicts on shared-memory stores</source>
        <translation>no máximo %1 conflitos de banco nas escritas na memória compartilhada</translation>
    </message>
    <message>
        <source>at most %1 sectors read beyond the fewest the loaded bytes need</source>
        <translation>no máximo %1 setores lidos além do mínimo necessário para os bytes lidos</translation>
    </message>
    <message>
        <source>at most %1 sectors written beyond the fewest the stored bytes need</source>
        <translation>no máximo %1 setores escritos além do mínimo necessário para os bytes escritos</translation>
    </message>
    <message>
        <source>Not run yet: F5 compiles and runs it on the picked device.</source>
        <translation>Ainda não executado: F5 o compila e executa no dispositivo escolhido.</translation>
    </message>
    <message>
        <source>Your last edit of this text is back (it is saved as you type). Reset brings the lesson&apos;s version.</source>
        <translation>A sua última edição deste texto está de volta (ela é salva enquanto você digita). Restaurar traz a versão da lição.</translation>
    </message>
    <message>
        <source>The text this session was recorded with.</source>
        <translation>O texto com que esta sessão foi gravada.</translation>
    </message>
    <message>
        <source>A recorded session&apos;s text: F5 runs it again here.</source>
        <translation>O texto de uma sessão gravada: F5 o executa de novo aqui.</translation>
    </message>
    <message>
        <source>nothing to run: select a kernel and choose Exercise ▸ Edit this kernel</source>
        <translation>nada para executar: selecione um kernel e escolha Exercício ▸ Editar este kernel</translation>
    </message>
    <message>
        <source>your kernel is still running</source>
        <translation>o seu kernel ainda está em execução</translation>
    </message>
    <message>
        <source>the text is empty</source>
        <translation>o texto está vazio</translation>
    </message>
    <message>
        <source>%1 is CUDA: pick a CUDA device, or edit the OpenCL version on this one</source>
        <translation>%1 é CUDA: escolha um dispositivo CUDA, ou edite a versão OpenCL neste</translation>
    </message>
    <message>
        <source>%1 is OpenCL C: pick an OpenCL device (NVIDIA&apos;s OpenCL runs it on the GPU too)</source>
        <translation>%1 é OpenCL C: escolha um dispositivo OpenCL (o OpenCL da NVIDIA também o executa na GPU)</translation>
    </message>
    <message>
        <source>your kernel did not finish within %1 s (an endless loop, or a size too large for the device?); it was stopped and the worker restarted. Your text is kept.</source>
        <translation>o seu kernel não terminou em %1 s (um laço infinito, ou um tamanho grande demais para o dispositivo?); ele foi interrompido e o executor, reiniciado. O seu texto foi mantido.</translation>
    </message>
    <message>
        <source>Compiling and running %1 on %2 …</source>
        <translation>Compilando e executando %1 em %2 …</translation>
    </message>
    <message>
        <source>running your %1 on %2 …</source>
        <translation>executando o seu %1 em %2 …</translation>
    </message>
    <message>
        <source>the worker&apos;s record reply names no session file</source>
        <translation>a resposta de gravação do executor não indica nenhum arquivo de sessão</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>linha %1: %2</translation>
    </message>
    <message>
        <source>Not compiled: the compiler stopped at line %1. Its messages are under the text; the marked lines show them too.</source>
        <translation>Não compilado: o compilador parou na linha %1. As mensagens dele estão abaixo do texto; as linhas marcadas também as mostram.</translation>
    </message>
    <message>
        <source>Not compiled: %1</source>
        <translation>Não compilado: %1</translation>
    </message>
    <message>
        <source>✘ Not compiled: line %1: %2</source>
        <translation>✘ Não compilado: linha %1: %2</translation>
    </message>
    <message>
        <source>✘ Not compiled</source>
        <translation>✘ Não compilado</translation>
    </message>
    <message>
        <source>%1 does not compile (line %2)</source>
        <translation>%1 não compila (linha %2)</translation>
    </message>
    <message>
        <source>Recorded; timing the starting kernel for your speed prediction …</source>
        <translation>Gravado; cronometrando o kernel inicial para a sua previsão de velocidade …</translation>
    </message>
    <message>
        <source>compiled for %1</source>
        <translation>compilado para %1</translation>
    </message>
    <message>
        <source>verified against the CPU reference</source>
        <translation>verificado com a referência da CPU</translation>
    </message>
    <message>
        <source>&lt;b&gt;not verified&lt;/b&gt;: the output differs from the CPU reference</source>
        <translation>&lt;b&gt;não verificado&lt;/b&gt;: a saída difere da referência da CPU</translation>
    </message>
    <message>
        <source>verified against the pack&apos;s reference kernel</source>
        <translation>verificado contra o kernel de referência do pacote</translation>
    </message>
    <message>
        <source>&lt;b&gt;not verified&lt;/b&gt;: the output differs from the pack&apos;s reference kernel</source>
        <translation>&lt;b&gt;não verificado&lt;/b&gt;: a saída difere do kernel de referência do pacote</translation>
    </message>
    <message>
        <source>measured %1</source>
        <translation>medido %1</translation>
    </message>
    <message>
        <source>Goal met.</source>
        <translation>Meta atingida.</translation>
    </message>
    <message>
        <source>Goal not met yet.</source>
        <translation>Meta ainda não atingida.</translation>
    </message>
    <message>
        <source>median %1 ms, %2 GB/s</source>
        <translation>mediana %1 ms, %2 GB/s</translation>
    </message>
    <message>
        <source>%1: you predicted %2; the trace has no such requests.</source>
        <translation>%1: você previu %2; o rastro não tem requisições desse tipo.</translation>
    </message>
    <message>
        <source>%1: you predicted %2; every one of the %3 requests took %2.</source>
        <translation>%1: você previu %2; cada uma das %3 requisições levou %2.</translation>
    </message>
    <message>
        <source>%1: you predicted %2; measured %3 (mean %4). The trace views are at request %5, the first that differs: &lt;a href=&apos;trace&apos;&gt;see it (Ctrl+4)&lt;/a&gt;.</source>
        <translation>%1: você previu %2; medido %3 (média %4). As visões do rastro estão na requisição %5, a primeira que difere: &lt;a href=&apos;trace&apos;&gt;veja-a (Ctrl+4)&lt;/a&gt;.</translation>
    </message>
    <message>
        <source>Wavefronts per shared-memory request</source>
        <translation>Frentes de onda por requisição de memória compartilhada</translation>
    </message>
    <message>
        <source>Sectors per global-memory request</source>
        <translation>Setores por requisição de memória global</translation>
    </message>
    <message>
        <source>Against the starting kernel: you predicted %1; measured %2× its bandwidth (%3 against %4 GB/s).</source>
        <translation>Comparado ao kernel inicial: você previu %1; medido %2× a largura de banda dele (%3 contra %4 GB/s).</translation>
    </message>
    <message>
        <source>The starting kernel could not be timed on this device, so the speed prediction stays open.</source>
        <translation>Não foi possível cronometrar o kernel inicial neste dispositivo, então a previsão de velocidade fica em aberto.</translation>
    </message>
    <message>
        <source>✔ Goal met</source>
        <translation>✔ Meta atingida</translation>
    </message>
    <message>
        <source>✘ Goal not met yet</source>
        <translation>✘ Meta ainda não atingida</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verificado</translation>
    </message>
    <message>
        <source>not verified</source>
        <translation>não verificado</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>%1: goal met</source>
        <translation>%1: meta atingida</translation>
    </message>
    <message>
        <source>%1: goal not met yet</source>
        <translation>%1: meta ainda não atingida</translation>
    </message>
    <message>
        <source>%1 ran: %2</source>
        <translation>%1 executado: %2</translation>
    </message>
    <message>
        <source>the recording of your kernel could not be opened; the status bar says why</source>
        <translation>a gravação do seu kernel não pôde ser aberta; a barra de status diz por quê</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>OpenCL C</source>
        <translation>OpenCL C</translation>
    </message>
    <message>
        <source>%1 is written in %2: a CUDA device runs an exercise&apos;s .cu text, an OpenCL device its .cl text, and an exercise opens in the picked device&apos;s</source>
        <translation>%1 está escrito em %2: um dispositivo CUDA executa o texto .cu de um exercício, um OpenCL o texto .cl, e o exercício abre no do dispositivo escolhido</translation>
    </message>
    <message>
        <source>Your edited %1 stays open: it is %2, and the picked device runs %3; pick a device that runs %2 to run it</source>
        <translation>Seu %1 editado continua aberto: é %2, e o dispositivo escolhido executa %3; escolha um dispositivo que execute %2 para executá-lo</translation>
    </message>
    <message>
        <source>&lt;i&gt;This exercise is no longer in its pack (the pack was read again): your text stays here. Pick another exercise, or free editing.&lt;/i&gt;&lt;br&gt;</source>
        <translation>&lt;i&gt;Este exercício não está mais no seu pacote (o pacote foi lido de novo): seu texto continua aqui. Escolha outro exercício, ou edição livre.&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>%1 (removed)</source>
        <translation>%1 (removido)</translation>
    </message>
    <message>
        <source>no longer in its pack: your text stays open here</source>
        <translation>não está mais no seu pacote: seu texto continua aberto aqui</translation>
    </message>
    <message>
        <source>&lt;i&gt;Lesson: %1&lt;/i&gt;&lt;br&gt;</source>
        <translation>&lt;i&gt;Lição: %1&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Goal:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Meta:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>the trace shows a problem: %1</source>
        <translation>o rastro mostra um problema: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) in the trace</source>
        <translation>
            <numerusform>%n problema no rastro</numerusform>
            <numerusform>%n problemas no rastro</numerusform>
        </translation>
    </message>
    <message>
        <source>measured %1, bound %2</source>
        <translation>medido %1, limite %2</translation>
    </message>
    <message>
        <source>verified at %1 too</source>
        <translation>verificado também em %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;not verified&lt;/b&gt; at %1: %2</source>
        <translation>&lt;b&gt;não verificado&lt;/b&gt; em %1: %2</translation>
    </message>
    <message>
        <source>first failed at %1 (seed %2)</source>
        <translation>falhou primeiro em %1 (semente %2)</translation>
    </message>
    <message>
        <source>OpenMP C</source>
        <translation>OpenMP C</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>a recording without a trace cannot be animated</source>
        <translation>uma gravação sem rastro não pode ser animada</translation>
    </message>
    <message>
        <source>the trace has no requests to step through</source>
        <translation>o rastro não tem requisições para percorrer</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>não foi possível gravar %1</translation>
    </message>
    <message>
        <source>encoding a frame failed: %1</source>
        <translation>a codificação de um quadro falhou: %1</translation>
    </message>
    <message>
        <source>writing %1 failed: %2</source>
        <translation>a gravação de %1 falhou: %2</translation>
    </message>
    <message>
        <source>this libavcodec has no VP9 or VP8 encoder (Debian&apos;s libavcodec59 has libvpx&apos;s)</source>
        <translation>esta libavcodec não tem codificador VP9 nem VP8 (a libavcodec59 do Debian tem os da libvpx)</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>não foi possível gravar %1: %2</translation>
    </message>
</context>
<context>
    <name>FamilyChart</name>
    <message>
        <source>kernel bandwidth (GB/s)</source>
        <translation>largura de banda do kernel (GB/s)</translation>
    </message>
    <message>
        <source>variant</source>
        <translation>variante</translation>
    </message>
    <message>
        <source>bandwidth (GB/s)</source>
        <translation>largura de banda (GB/s)</translation>
    </message>
    <message>
        <source>%1: no runs yet (F5 runs the selected kernel)</source>
        <translation>%1: nenhuma execução ainda (F5 executa o kernel selecionado)</translation>
    </message>
    <message>
        <source>%1: measured bandwidth</source>
        <translation>%1: largura de banda medida</translation>
    </message>
    <message>
        <source>device copy: %1 GB/s</source>
        <translation>cópia no dispositivo: %1 GB/s</translation>
    </message>
    <message>
        <source>bandwidth (GB/s, log scale)</source>
        <translation>largura de banda (GB/s, escala logarítmica)</translation>
    </message>
    <message>
        <source>%1 · device copy %2 GB/s</source>
        <translation>%1 · cópia no dispositivo %2 GB/s</translation>
    </message>
</context>
<context>
    <name>GridView</name>
    <message>
        <source>Grid: what the traced blocks read and wrote</source>
        <translation>Grade: o que os blocos rastreados leram e escreveram</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>compartilhada</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>This kernel made no global accesses in the traced blocks.</source>
        <translation>Este kernel não fez acessos globais nos blocos rastreados.</translation>
    </message>
    <message>
        <source>%1 (%2), %3 x %4</source>
        <translation>%1 (%2), %3 x %4</translation>
    </message>
    <message>
        <source>rows %1-%2, cols %3-%4</source>
        <translation>linhas %1-%2, colunas %3-%4</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>bloco %1</translation>
    </message>
    <message>
        <source>read now</source>
        <translation>lido agora</translation>
    </message>
    <message>
        <source>written now</source>
        <translation>escrito agora</translation>
    </message>
    <message>
        <source>read earlier (this block)</source>
        <translation>lido antes (este bloco)</translation>
    </message>
    <message>
        <source>written earlier (this block)</source>
        <translation>escrito antes (este bloco)</translation>
    </message>
    <message>
        <source>other traced blocks</source>
        <translation>outros blocos rastreados</translation>
    </message>
    <message>
        <source>input</source>
        <translation>entrada</translation>
    </message>
    <message>
        <source>output</source>
        <translation>saída</translation>
    </message>
    <message>
        <source>scratch</source>
        <translation>rascunho</translation>
    </message>
    <message>
        <source>block %1, warp %2, line %3 %4 %5</source>
        <translation>bloco %1, warp %2, linha %3 %5 %4</translation>
    </message>
    <message>
        <source>global accesses %1 / %2</source>
        <translation>acessos globais %1 / %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>outside: &apos;%1&apos; − %2 bytes</source>
        <translation>fora: &apos;%1&apos; − %2 bytes</translation>
    </message>
    <message>
        <source>outside: &apos;%1&apos; + %2 bytes</source>
        <translation>fora: &apos;%1&apos; + %2 bytes</translation>
    </message>
    <message>
        <source>outside: buffer &apos;%1&apos; − %2 bytes (holds %3)</source>
        <translation>fora: buffer &apos;%1&apos; − %2 bytes (tem %3)</translation>
    </message>
    <message>
        <source>outside: buffer &apos;%1&apos; + %2 bytes (holds %3)</source>
        <translation>fora: buffer &apos;%1&apos; + %2 bytes (tem %3)</translation>
    </message>
    <message>
        <source>%1 writes there, line %2</source>
        <translation>%1 escreve ali, linha %2</translation>
    </message>
    <message>
        <source>%1 reads there, line %2</source>
        <translation>%1 lê ali, linha %2</translation>
    </message>
    <message>
        <source>(and 1 more lane of its warp)</source>
        <translation>(e mais 1 lane do seu warp)</translation>
    </message>
    <message>
        <source>(and %1 more lanes of its warp)</source>
        <translation>(e mais %1 lanes do seu warp)</translation>
    </message>
</context>
<context>
    <name>KernelTree</name>
    <message>
        <source>Lesson / kernel</source>
        <translation>Lição / kernel</translation>
    </message>
    <message>
        <source>Lesson section</source>
        <translation>Seção da lição</translation>
    </message>
    <message>
        <source>  (corrected, not in the lesson)</source>
        <translation>  (corrigido, não está na lição)</translation>
    </message>
    <message>
        <source>Matrix transpose (shared memory)</source>
        <translation>Transposição de matriz (memória compartilhada)</translation>
    </message>
    <message>
        <source>Memory coalescing (matrix add)</source>
        <translation>Coalescência de memória (soma de matrizes)</translation>
    </message>
    <message>
        <source>Parallel reduction</source>
        <translation>Redução paralela</translation>
    </message>
    <message>
        <source>Shared-memory data layout</source>
        <translation>Organização dos dados na memória compartilhada</translation>
    </message>
    <message>
        <source>%1 (pack %2)</source>
        <translation>%1 (pacote %2)</translation>
    </message>
</context>
<context>
    <name>LessonPane</name>
    <message>
        <source>Original (%1)</source>
        <translation>Original (%1)</translation>
    </message>
    <message>
        <source>Show the lesson in the interface&apos;s language again</source>
        <translation>Mostrar de novo a lição no idioma da interface</translation>
    </message>
    <message>
        <source>Show the lesson as it was written</source>
        <translation>Mostrar a lição como foi escrita</translation>
    </message>
    <message>
        <source>The lesson %1 is not bundled with this build.</source>
        <translation>A lição %1 não está incluída nesta compilação.</translation>
    </message>
    <message>
        <source>No embedded source named %1.</source>
        <translation>Nenhum código-fonte embutido chamado %1.</translation>
    </message>
    <message>
        <source>From the pack %1; it brings no lesson text.</source>
        <translation>Do pacote %1; ele não traz texto de lição.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>ThreadMap</source>
        <translation>ThreadMap</translation>
    </message>
    <message>
        <source>Variants (Ctrl+1)</source>
        <translation>Variantes (Ctrl+1)</translation>
    </message>
    <message>
        <source>Sweep (Ctrl+2)</source>
        <translation>Varredura (Ctrl+2)</translation>
    </message>
    <message>
        <source>Recording (Ctrl+3)</source>
        <translation>Gravação (Ctrl+3)</translation>
    </message>
    <message>
        <source>Trace (Ctrl+4)</source>
        <translation>Rastro (Ctrl+4)</translation>
    </message>
    <message>
        <source>Recorded just now</source>
        <translation>Gravado agora mesmo</translation>
    </message>
    <message>
        <source>worker %1 starting …</source>
        <translation>iniciando o executor %1 …</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation>&amp;Abrir sessão…</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>Abrir sessão</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Abrir &amp;recente</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(nenhum)</translation>
    </message>
    <message>
        <source>Open &amp;bundled recording</source>
        <translation>Abrir gravação in&amp;cluída</translation>
    </message>
    <message>
        <source>&amp;Save session…</source>
        <translation>&amp;Salvar sessão…</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>Salvar sessão</translation>
    </message>
    <message>
        <source>&amp;Export chart or data…</source>
        <translation>E&amp;xportar gráfico ou dados…</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>Sa&amp;ir</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Executar</translation>
    </message>
    <message>
        <source>&amp;Run the selected kernel</source>
        <translation>&amp;Executar o kernel selecionado</translation>
    </message>
    <message>
        <source>&amp;Sweep the family over the chosen parameter</source>
        <translation>&amp;Varrer a família no parâmetro escolhido</translation>
    </message>
    <message>
        <source>&amp;Cancel the sweep</source>
        <translation>&amp;Cancelar a varredura</translation>
    </message>
    <message>
        <source>Record &amp;trace of the selected kernel</source>
        <translation>&amp;Gravar o rastro do kernel selecionado</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>E&amp;xibir</translation>
    </message>
    <message>
        <source>&amp;Variants chart</source>
        <translation>Gráfico de &amp;variantes</translation>
    </message>
    <message>
        <source>S&amp;weep chart</source>
        <translation>Gráfico de va&amp;rredura</translation>
    </message>
    <message>
        <source>&amp;Recording</source>
        <translation>&amp;Gravação</translation>
    </message>
    <message>
        <source>&amp;Trace views</source>
        <translation>Visões do ras&amp;tro</translation>
    </message>
    <message>
        <source>&amp;Kernel list</source>
        <translation>Lista de &amp;kernels</translation>
    </message>
    <message>
        <source>&amp;Device picker</source>
        <translation>Seletor de &amp;dispositivo</translation>
    </message>
    <message>
        <source>&amp;Parameters</source>
        <translation>&amp;Parâmetros</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Idioma</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Aj&amp;uda</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Atalhos de teclado</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Atalhos de teclado</translation>
    </message>
    <message>
        <source>no device is available: see the reasons in the device list</source>
        <translation>nenhum dispositivo disponível: veja os motivos na lista de dispositivos</translation>
    </message>
    <message>
        <source>pick a kernel first (Ctrl+K)</source>
        <translation>escolha um kernel primeiro (Ctrl+K)</translation>
    </message>
    <message>
        <source>no temporary folder for recordings: %1</source>
        <translation>sem pasta temporária para gravações: %1</translation>
    </message>
    <message>
        <source>this kernel has no parameter with a small set of values to sweep</source>
        <translation>este kernel não tem parâmetro com um conjunto pequeno de valores para varrer</translation>
    </message>
    <message>
        <source>%1
recorded on %2</source>
        <translation>%1
gravado em %2</translation>
    </message>
    <message>
        <source>%1: bandwidth over %2</source>
        <translation>%1: largura de banda por %2</translation>
    </message>
    <message>
        <source>%1: export as .png, .pdf, .svg, .csv or .json</source>
        <translation>%1: exporte como .png, .pdf, .svg, .csv ou .json</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>exportado %1</translation>
    </message>
    <message>
        <source>nothing to save yet: run a kernel (F5) or record its trace (Ctrl+R)</source>
        <translation>nada para salvar ainda: execute um kernel (F5) ou grave o rastro dele (Ctrl+R)</translation>
    </message>
    <message>
        <source>saved %1</source>
        <translation>salvo %1</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>Aberto %1</translation>
    </message>
    <message>
        <source>no kernel &apos;%1&apos; in the catalog</source>
        <translation>nenhum kernel &apos;%1&apos; no catálogo</translation>
    </message>
    <message>
        <source>no bundled recording of %1</source>
        <translation>nenhuma gravação incluída de %1</translation>
    </message>
    <message>
        <source>Bundled recording</source>
        <translation>Gravação incluída</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>the session&apos;s kernel &apos;%1&apos; is not in this catalog</source>
        <translation>o kernel &apos;%1&apos; da sessão não está neste catálogo</translation>
    </message>
    <message>
        <source>the session&apos;s timed run is malformed: %1</source>
        <translation>a execução cronometrada da sessão está malformada: %1</translation>
    </message>
    <message>
        <source>the session&apos;s trace cannot be analysed: %1</source>
        <translation>o rastro da sessão não pode ser analisado: %1</translation>
    </message>
    <message>
        <source>%1: a recording made on %2 (%3) at %4 by %5. F5 runs it live on the device picked above.</source>
        <translation>%1: uma gravação feita em %2 (%3) em %4 por %5. F5 a executa ao vivo no dispositivo escolhido acima.</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2, %Ln traced block(s)</source>
        <translation>
            <numerusform>%1 em %2, %Ln bloco rastreado</numerusform>
            <numerusform>%1 em %2, %Ln blocos rastreados</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 em %2</translation>
    </message>
    <message>
        <source>The window is back to its default layout.</source>
        <translation>A janela voltou ao layout padrão.</translation>
    </message>
    <message>
        <source>Reset &amp;layout</source>
        <translation>Restaurar o &amp;layout</translation>
    </message>
    <message>
        <source>&amp;Hide or show the controls</source>
        <translation>&amp;Ocultar ou mostrar os controles</translation>
    </message>
    <message>
        <source>Chart &amp;scale</source>
        <translation>&amp;Escala do gráfico</translation>
    </message>
    <message>
        <source>&amp;Automatic</source>
        <translation>Escala &amp;automática</translation>
    </message>
    <message>
        <source>&amp;Linear</source>
        <translation>Escala &amp;linear</translation>
    </message>
    <message>
        <source>L&amp;ogarithmic</source>
        <translation>Escala l&amp;ogarítmica</translation>
    </message>
    <message>
        <source>Presentatio&amp;n mode</source>
        <translation>&amp;Modo de apresentação</translation>
    </message>
    <message>
        <source>Side by side (Ctrl+5)</source>
        <translation>Lado a lado (Ctrl+5)</translation>
    </message>
    <message>
        <source>&amp;Compare two recordings…</source>
        <translation>Co&amp;mparar duas gravações…</translation>
    </message>
    <message>
        <source>Side &amp;by side</source>
        <translation>&amp;Lado a lado</translation>
    </message>
    <message>
        <source>the bundled %1</source>
        <translation>o %1 incluído</translation>
    </message>
    <message>
        <source>%1 holds no trace to compare: record one with Ctrl+R</source>
        <translation>%1 não tem rastro para comparar: grave um com Ctrl+R</translation>
    </message>
    <message>
        <source>the trace of %1 cannot be analysed: %2</source>
        <translation>o rastro de %1 não pode ser analisado: %2</translation>
    </message>
    <message>
        <source>Side by side: %1 and %2</source>
        <translation>Lado a lado: %1 e %2</translation>
    </message>
    <message>
        <source>%1 · bundled recording (%2)</source>
        <translation>%1 · gravação incluída (%2)</translation>
    </message>
    <message>
        <source>GIF animation (*.gif);;WebM video (*.webm);;Numbered PNG frames (*.png)</source>
        <translation>Animação GIF (*.gif);;Vídeo WebM (*.webm);;Quadros PNG numerados (*.png)</translation>
    </message>
    <message>
        <source>nothing to export: Compare… (F7) picks two recordings first</source>
        <translation>nada a exportar: Comparar… (F7) escolhe duas gravações antes</translation>
    </message>
    <message>
        <source>nothing to export: open a recording (Ctrl+O) or record a trace (Ctrl+R) first</source>
        <translation>nada a exportar: abra uma gravação (Ctrl+O) ou grave um rastro (Ctrl+R) antes</translation>
    </message>
    <message>
        <source>%1: export an animation as .gif, .webm or .png (numbered frames)</source>
        <translation>%1: exporte uma animação como .gif, .webm ou .png (quadros numerados)</translation>
    </message>
    <message>
        <source>Writing %1 …</source>
        <translation>Gravando %1 …</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>export of %1 cancelled</source>
        <translation>exportação de %1 cancelada</translation>
    </message>
    <message>
        <source>Your kernel, run just now</source>
        <translation>O seu kernel, executado agora mesmo</translation>
    </message>
    <message>
        <source>Exercise (Ctrl+6)</source>
        <translation>Exercício (Ctrl+6)</translation>
    </message>
    <message>
        <source>&amp;Exercise</source>
        <translation>E&amp;xercício</translation>
    </message>
    <message>
        <source>E&amp;xercise</source>
        <translation>Exer&amp;cício</translation>
    </message>
    <message>
        <source>&amp;Edit this kernel</source>
        <translation>&amp;Editar este kernel</translation>
    </message>
    <message>
        <source>E&amp;xercises</source>
        <translation>E&amp;xercícios</translation>
    </message>
    <message>
        <source>&amp;Run your kernel</source>
        <translation>Executar o &amp;seu kernel</translation>
    </message>
    <message>
        <source>Re&amp;set to the lesson&apos;s version</source>
        <translation>&amp;Restaurar a versão da lição</translation>
    </message>
    <message>
        <source>a recording is already in progress; Side by side waits for it to end</source>
        <translation>já há uma gravação em andamento; Lado a lado espera que ela termine</translation>
    </message>
    <message>
        <source>Connect to a &amp;GPU server…</source>
        <translation>Conectar a um servidor &amp;GPU…</translation>
    </message>
    <message>
        <source>Connect to a GPU server</source>
        <translation>Conectar a um servidor GPU</translation>
    </message>
    <message>
        <source>The server&apos;s [user@]host[:port], reached with ssh (your keys and ssh config); ThreadMap must be installed there. Empty: this computer.</source>
        <translation>O [usuário@]host[:porta] do servidor, acessado com ssh (suas chaves e sua configuração do ssh); o ThreadMap precisa estar instalado lá. Vazio: este computador.</translation>
    </message>
    <message>
        <source>kernels run on this computer</source>
        <translation>os kernels rodam neste computador</translation>
    </message>
    <message>
        <source>connecting to %1 …</source>
        <translation>conectando a %1 …</translation>
    </message>
    <message>
        <source>Open &amp;pack…</source>
        <translation>Abrir &amp;pacote…</translation>
    </message>
    <message>
        <source>Open pack (a folder with a pack.toml)</source>
        <translation>Abrir pacote (uma pasta com um pack.toml)</translation>
    </message>
    <message>
        <source>The worker refused a pack: %1</source>
        <translation>O processo de trabalho recusou um pacote: %1</translation>
    </message>
    <message numerus="yes">
        <source>Pack %1 opened: %n kernel(s)</source>
        <translation>
            <numerusform>Pacote %1 aberto: %n kernel</numerusform>
            <numerusform>Pacote %1 aberto: %n kernels</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;New kernel…</source>
        <translation>&amp;Novo kernel…</translation>
    </message>
    <message>
        <source>New kernel</source>
        <translation>Novo kernel</translation>
    </message>
    <message>
        <source>A pack of your own, with a kernel to start from (CUDA and OpenCL C), in your packs folder. Its name (lowercase letters, digits, &apos;_&apos; or &apos;-&apos;):</source>
        <translation>Um pacote seu, com um kernel para começar (CUDA e OpenCL C), na sua pasta de pacotes. O nome (letras minúsculas, dígitos, &apos;_&apos; ou &apos;-&apos;):</translation>
    </message>
    <message>
        <source>Packs read again from their folders</source>
        <translation>Pacotes lidos de novo das suas pastas</translation>
    </message>
    <message>
        <source>New kernel %1: edit %2/scale.cl or scale.cu and its lesson scale.md, then File ▸ Reload packs</source>
        <translation>Novo kernel %1: edite %2/scale.cl ou scale.cu e a sua lição scale.md, depois Arquivo ▸ Recarregar pacotes</translation>
    </message>
    <message>
        <source>Reloa&amp;d packs</source>
        <translation>Recarregar pac&amp;otes</translation>
    </message>
</context>
<context>
    <name>PackLibrary</name>
    <message>
        <source>The pack in %1 is open already (File ▸ Reload packs reads its files anew).</source>
        <translation>O pacote em %1 já está aberto (Arquivo ▸ Recarregar pacotes lê os arquivos de novo).</translation>
    </message>
    <message>
        <source>%1: a pack named &apos;%2&apos; is open already, from %3; give one of them another name in its pack.toml</source>
        <translation>%1: um pacote chamado &apos;%2&apos; já está aberto, de %3; dê a um deles outro nome no seu pack.toml</translation>
    </message>
    <message>
        <source>%1: its pack&apos;s name is not the one read before (&apos;%2&apos;, now &apos;%3&apos;); start ThreadMap again to read it</source>
        <translation>%1: o nome do pacote não é o lido antes (&apos;%2&apos;, agora &apos;%3&apos;); inicie o ThreadMap de novo para lê-lo</translation>
    </message>
</context>
<context>
    <name>PlaybackBar</name>
    <message>
        <source>First request (Home)</source>
        <translation>Primeira requisição (Home)</translation>
    </message>
    <message>
        <source>Step back (Left)</source>
        <translation>Voltar um passo (Esquerda)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Reproduzir</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>Reproduzir / pausar (Espaço)</translation>
    </message>
    <message>
        <source>Step forward (Right)</source>
        <translation>Avançar um passo (Direita)</translation>
    </message>
    <message>
        <source>Last request (End)</source>
        <translation>Última requisição (End)</translation>
    </message>
    <message>
        <source>Slower (-)</source>
        <translation>Mais devagar (-)</translation>
    </message>
    <message>
        <source>Faster (+)</source>
        <translation>Mais rápido (+)</translation>
    </message>
    <message>
        <source>The recorded warp-level requests, in device order</source>
        <translation>As requisições gravadas no nível de warp, na ordem do dispositivo</translation>
    </message>
    <message>
        <source>%1 requests/s</source>
        <translation>%1 requisições/s</translation>
    </message>
    <message>
        <source>No recorded requests.</source>
        <translation>Nenhuma requisição gravada.</translation>
    </message>
    <message>
        <source>request %1 / %2 · shared wavefronts %3 / %4 · global sectors %5 / %6</source>
        <translation>requisição %1 / %2 · frentes de onda compartilhadas %3 / %4 · setores globais %5 / %6</translation>
    </message>
</context>
<context>
    <name>ProblemsView</name>
    <message>
        <source>Data race: read after write</source>
        <translation>Corrida de dados: leitura após escrita</translation>
    </message>
    <message>
        <source>Data race: write after read</source>
        <translation>Corrida de dados: escrita após leitura</translation>
    </message>
    <message>
        <source>Data race: write after write</source>
        <translation>Corrida de dados: escrita após escrita</translation>
    </message>
    <message>
        <source>Uninitialised read</source>
        <translation>Leitura não inicializada</translation>
    </message>
    <message>
        <source>Out of bounds</source>
        <translation>Fora dos limites</translation>
    </message>
    <message>
        <source>Barrier in divergent code</source>
        <translation>Barreira em código divergente</translation>
    </message>
    <message>
        <source>thread %1</source>
        <translation>thread %1</translation>
    </message>
    <message>
        <source>thread %1 (%2,%3)</source>
        <translation>thread %1 (%2,%3)</translation>
    </message>
    <message>
        <source>%1 - %2 bytes (before the buffer&apos;s start)</source>
        <translation>%1 - %2 bytes (antes do início do buffer)</translation>
    </message>
    <message>
        <source>%1 + %2 bytes (the buffer holds %3)</source>
        <translation>%1 + %2 bytes (o buffer tem %3)</translation>
    </message>
    <message>
        <source>shared offset %1</source>
        <translation>deslocamento compartilhado %1</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), then %4 reads it (line %5) in the same barrier interval</source>
        <translation>%1 escreve %2 (linha %3) e depois %4 o lê (linha %5) no mesmo intervalo entre barreiras</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3) before %4 writes it (line %5) in the same barrier interval</source>
        <translation>%1 lê %2 (linha %3) antes que %4 o escreva (linha %5) no mesmo intervalo entre barreiras</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), and %4 writes it too (line %5) in the same barrier interval</source>
        <translation>%1 escreve %2 (linha %3) e %4 também o escreve (linha %5) no mesmo intervalo entre barreiras</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3) before any thread of the block wrote it</source>
        <translation>%1 lê %2 (linha %3) antes que qualquer thread do bloco o escrevesse</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), in no buffer of the launch</source>
        <translation>%1 escreve %2 (linha %3), fora dos buffers do lançamento</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3), in no buffer of the launch</source>
        <translation>%1 lê %2 (linha %3), fora dos buffers do lançamento</translation>
    </message>
    <message>
        <source>the barrier at line %1 was reached by warp %2 but not by warp(s) %3</source>
        <translation>a barreira da linha %1 foi alcançada pelo warp %2, mas não pelo(s) warp(s) %3</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>bloco %1</translation>
    </message>
    <message numerus="yes">
        <source>%n more like it</source>
        <translation>
            <numerusform>mais %n como este</numerusform>
            <numerusform>mais %n como este</numerusform>
        </translation>
    </message>
    <message>
        <source>No problems found in the traced blocks.</source>
        <translation>Nenhum problema encontrado nos blocos rastreados.</translation>
    </message>
    <message>
        <source>Races were not looked for: this recording&apos;s barriers do not say where they fall among the accesses.</source>
        <translation>Corridas de dados não foram procuradas: as barreiras desta gravação não dizem onde caem entre os acessos.</translation>
    </message>
    <message>
        <source>Problems found in the traced blocks: %1</source>
        <translation>Problemas encontrados nos blocos rastreados: %1</translation>
    </message>
    <message>
        <source>Choose one to step to it; choose it again for the other access. Up/Down, Enter.</source>
        <translation>Escolha um para ir até ele; escolha-o de novo para o outro acesso. Cima/Baixo, Enter.</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), in no shared array of the block</source>
        <translation>%1 escreve %2 (linha %3), fora dos arrays compartilhados do bloco</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3), in no shared array of the block</source>
        <translation>%1 lê %2 (linha %3), fora dos arrays compartilhados do bloco</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV data (*.csv);;JSON data (*.json)</source>
        <translation>Imagem PNG (*.png);;Documento PDF (*.pdf);;Desenho SVG (*.svg);;Dados CSV (*.csv);;Dados JSON (*.json)</translation>
    </message>
    <message>
        <source>%1: a chart is exported as .png, .pdf or .svg</source>
        <translation>%1: um gráfico é exportado como .png, .pdf ou .svg</translation>
    </message>
    <message>
        <source>could not write %1</source>
        <translation>não foi possível gravar %1</translation>
    </message>
    <message>
        <source>could not open %1: %2</source>
        <translation>não foi possível abrir %1: %2</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>threads</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocos</translation>
    </message>
    <message>
        <source>16-byte strips per thread</source>
        <translation>faixas de 16 bytes por thread</translation>
    </message>
    <message>
        <source>elements per thread</source>
        <translation>elementos por thread</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>elementos</translation>
    </message>
    <message>
        <source>traced blocks: &quot;%1&quot; is not a block id; give &quot;all&quot;, or ids such as 0, 1, 64, or leave the field empty for the default blocks</source>
        <translation>blocos rastreados: &quot;%1&quot; não é um id de bloco; informe &quot;all&quot;, ou ids como 0, 1, 64, ou deixe o campo vazio para os blocos padrão</translation>
    </message>
    <message>
        <source>could not save %1: %2</source>
        <translation>não foi possível salvar %1: %2</translation>
    </message>
    <message>
        <source>%1 is not a ThreadMap session: %2 bytes is larger than any session (%3)</source>
        <translation>%1 não é uma sessão do ThreadMap: %2 bytes é maior que qualquer sessão (%3)</translation>
    </message>
    <message>
        <source>%1 is not a readable ThreadMap session: %2</source>
        <translation>%1 não é uma sessão legível do ThreadMap: %2</translation>
    </message>
    <message>
        <source>ThreadMap sessions (*.threadmap)</source>
        <translation>Sessões do ThreadMap (*.threadmap)</translation>
    </message>
    <message>
        <source>%1 on %2 % of them</source>
        <translation>%1 em %2 % delas</translation>
    </message>
    <message>
        <source>cannot save the learner profile: %1</source>
        <translation>não foi possível salvar o perfil do aprendiz: %1</translation>
    </message>
</context>
<context>
    <name>RecordingPanel</name>
    <message>
        <source>No recording open. Ctrl+R records the selected kernel&apos;s trace; Ctrl+O opens a .threadmap session.</source>
        <translation>Nenhuma gravação aberta. Ctrl+R grava o rastro do kernel selecionado; Ctrl+O abre uma sessão .threadmap.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; recorded on %2 (%3), %4, by %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; gravado em %2 (%3), %4, por %5</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 in %2: grid %3 × %4 blocks of %5 × %6 threads</source>
        <translation>&lt;br&gt;%1 em %2: grade de %3 × %4 blocos de %5 × %6 threads</translation>
    </message>
    <message>
        <source>&lt;br&gt;Traced %1 of %2 blocks: %3 accesses in %4 warp-level requests, %5 barrier arrivals</source>
        <translation>&lt;br&gt;Rastreados %1 de %2 blocos: %3 acessos em %4 requisições no nível de warp, %5 chegadas a barreiras</translation>
    </message>
    <message>
        <source>&lt;br&gt;Shared memory: %1 wavefronts for %2 requests (%3 bank conflicts)</source>
        <translation>&lt;br&gt;Memória compartilhada: %1 frentes de onda para %2 requisições (%3 conflitos de banco)</translation>
    </message>
    <message>
        <source>&lt;br&gt;Global memory: %1 sectors for %2 requests (ideal %3)</source>
        <translation>&lt;br&gt;Memória global: %1 setores para %2 requisições (ideal %3)</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;Totals of the traced blocks only.&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;Totais apenas dos blocos rastreados.&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;Traced run %1. Model: %2</source>
        <translation>&lt;br&gt;Execução rastreada %1. Modelo: %2</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verificada</translation>
    </message>
    <message>
        <source>NOT verified</source>
        <translation>NÃO verificada</translation>
    </message>
    <message>
        <source>warp width %1 assumed (the device does not report one); 32 banks of 4 bytes and 32-byte sectors, as on NVIDIA GPUs</source>
        <translation>largura de warp %1 presumida (o dispositivo não a informa); 32 bancos de 4 bytes e setores de 32 bytes, como nas GPUs NVIDIA</translation>
    </message>
    <message>
        <source>warp width %1 read from the device (%2); 32 banks of 4 bytes and 32-byte sectors</source>
        <translation>largura de warp %1 lida do dispositivo (%2); 32 bancos de 4 bytes e setores de 32 bytes</translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message>
        <source>the worker sent a malformed report: %1</source>
        <translation>o executor enviou um relatório malformado: %1</translation>
    </message>
    <message>
        <source>sweep: %1 of %2 points of %3</source>
        <translation>varredura: %1 de %2 pontos de %3</translation>
    </message>
    <message>
        <source>Worker restarted (%1 so far): %2</source>
        <translation>Executor reiniciado (%1 até agora): %2</translation>
    </message>
    <message>
        <source>worker ready (pid %1)</source>
        <translation>executor pronto (pid %1)</translation>
    </message>
    <message numerus="yes">
        <source>%1; restarted %n time(s) this session</source>
        <translation>
            <numerusform>%1; reiniciado %n vez nesta sessão</numerusform>
            <numerusform>%1; reiniciado %n vezes nesta sessão</numerusform>
        </translation>
    </message>
    <message>
        <source>running %1 …</source>
        <translation>executando %1 …</translation>
    </message>
    <message>
        <source>cancelling the sweep after the current point …</source>
        <translation>cancelando a varredura após o ponto atual …</translation>
    </message>
    <message>
        <source>a recording is already in progress</source>
        <translation>já há uma gravação em andamento</translation>
    </message>
    <message>
        <source>recording the trace of %1 …</source>
        <translation>gravando o rastro de %1 …</translation>
    </message>
    <message>
        <source>sweep cancelled</source>
        <translation>varredura cancelada</translation>
    </message>
    <message>
        <source>sweep done</source>
        <translation>varredura concluída</translation>
    </message>
    <message>
        <source>the worker&apos;s record reply names no session file</source>
        <translation>a resposta de gravação do executor não indica nenhum arquivo de sessão</translation>
    </message>
    <message>
        <source>worker ready on %1: the kernels run there</source>
        <translation>worker pronto em %1: os kernels rodam lá</translation>
    </message>
    <message>
        <source>cannot write the recording here: %1</source>
        <translation>não é possível gravar a gravação aqui: %1</translation>
    </message>
    <message>
        <source>the recording from %1 arrived out of order</source>
        <translation>a gravação de %1 chegou fora de ordem</translation>
    </message>
    <message>
        <source>receiving the recording from %1: %2 of %3 kB</source>
        <translation>recebendo a gravação de %1: %2 de %3 kB</translation>
    </message>
    <message>
        <source>the recording from %1 came incomplete: %2 of %3 bytes</source>
        <translation>a gravação de %1 chegou incompleta: %2 de %3 bytes</translation>
    </message>
</context>
<context>
    <name>ScheduleView</name>
    <message>
        <source>block (%1, %2): SM %3, %4-%5 us · %6 blocks, %7 SMs</source>
        <translation>bloco (%1, %2): SM %3, %4-%5 us · %6 blocos, %7 SMs</translation>
    </message>
    <message>
        <source>%1 blocks in the order they ran (no clock or SM id on this device)</source>
        <translation>%1 blocos na ordem em que rodaram (sem relógio nem id de SM neste dispositivo)</translation>
    </message>
    <message>
        <source>Schedule: blocks on SMs over time</source>
        <translation>Escalonamento: blocos nos SMs ao longo do tempo</translation>
    </message>
    <message>
        <source>No schedule was recorded.</source>
        <translation>Nenhum escalonamento foi gravado.</translation>
    </message>
    <message>
        <source>SM %1</source>
        <translation>SM %1</translation>
    </message>
    <message>
        <source>order</source>
        <translation>ordem</translation>
    </message>
    <message>
        <source>microseconds since the first block started (%globaltimer)</source>
        <translation>microssegundos desde o início do primeiro bloco (%globaltimer)</translation>
    </message>
    <message>
        <source>order in which blocks ran</source>
        <translation>ordem em que os blocos rodaram</translation>
    </message>
    <message>
        <source>block</source>
        <translation>bloco</translation>
    </message>
    <message>
        <source>traced block</source>
        <translation>bloco rastreado</translation>
    </message>
    <message>
        <source>current block</source>
        <translation>bloco atual</translation>
    </message>
</context>
<context>
    <name>SideBySide</name>
    <message>
        <source>%1 GB/s · median %2 ms</source>
        <translation>%1 GB/s · mediana %2 ms</translation>
    </message>
    <message>
        <source>no timed run in this recording</source>
        <translation>nenhuma execução cronometrada nesta gravação</translation>
    </message>
    <message>
        <source>%1× the bandwidth</source>
        <translation>%1× a largura de banda</translation>
    </message>
    <message>
        <source>%1: the kernel &apos;%2&apos; is not in this catalog</source>
        <translation>%1: o kernel &apos;%2&apos; não está neste catálogo</translation>
    </message>
    <message>
        <source>%1 and %2 are of different lessons (%3, %4): compare two variants of one family</source>
        <translation>%1 e %2 são de lições diferentes (%3, %4): compare duas variantes de uma mesma família</translation>
    </message>
    <message>
        <source>%1 (yours: %2)</source>
        <translation>%1 (sua versão: %2)</translation>
    </message>
    <message>
        <source>%1 wavefronts per request</source>
        <translation>%1 frentes de onda por requisição</translation>
    </message>
    <message>
        <source>%1 sectors per request</source>
        <translation>%1 setores por requisição</translation>
    </message>
    <message>
        <source>wavefronts per request</source>
        <translation>frentes de onda por requisição</translation>
    </message>
    <message>
        <source>sectors per request</source>
        <translation>setores por requisição</translation>
    </message>
    <message>
        <source>wavefronts per %1 bytes</source>
        <translation>frentes de onda por %1 bytes</translation>
    </message>
    <message>
        <source>sectors per %1 bytes</source>
        <translation>setores por %1 bytes</translation>
    </message>
    <message>
        <source>%1, %2: %3 → %4</source>
        <translation>%1, %2: %3 → %4</translation>
    </message>
    <message>
        <source> (bank conflicts → none)</source>
        <translation> (conflitos de banco → nenhum)</translation>
    </message>
    <message>
        <source> (no bank conflicts → conflicts)</source>
        <translation> (sem conflitos de banco → conflitos)</translation>
    </message>
    <message>
        <source> (uncoalesced → coalesced)</source>
        <translation> (não coalescida → coalescida)</translation>
    </message>
    <message>
        <source> (coalesced → uncoalesced)</source>
        <translation> (coalescida → não coalescida)</translation>
    </message>
    <message>
        <source>global load</source>
        <translation>leitura global</translation>
    </message>
    <message>
        <source>global store</source>
        <translation>escrita global</translation>
    </message>
    <message>
        <source>shared load</source>
        <translation>leitura compartilhada</translation>
    </message>
    <message>
        <source>shared store</source>
        <translation>escrita compartilhada</translation>
    </message>
    <message>
        <source>line %1 %2: %3 (ideal %4)</source>
        <translation>linha %1 %2: %3 (ideal %4)</translation>
    </message>
    <message>
        <source>no %1 here in %2</source>
        <translation>nenhuma %1 aqui em %2</translation>
    </message>
    <message>
        <source>%1 traced no block %2</source>
        <translation>%1 não rastreou o bloco %2</translation>
    </message>
    <message>
        <source>no block %1 warp %2 %3 in %4</source>
        <translation>nenhuma %3 do bloco %1 warp %2 em %4</translation>
    </message>
    <message>
        <source>the same work at every corresponding site</source>
        <translation>o mesmo trabalho em cada ponto de acesso correspondente</translation>
    </message>
    <message>
        <source>%1 only in %2</source>
        <translation>%1 só em %2</translation>
    </message>
    <message numerus="yes">
        <source>%n wavefront(s) per request</source>
        <translation>
            <numerusform>%n frente de onda por requisição</numerusform>
            <numerusform>%n frentes de onda por requisição</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sector(s) per request</source>
        <translation>
            <numerusform>%n setor por requisição</numerusform>
            <numerusform>%n setores por requisição</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>block %1 warp %2 did this %3 only %n time(s) in %4</source>
        <translation>
            <numerusform>bloco %1 warp %2 fez esta %3 só %n vez em %4</numerusform>
            <numerusform>bloco %1 warp %2 fez esta %3 só %n vezes em %4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SiteModel</name>
    <message>
        <source>shared</source>
        <translation>compartilhada</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>line</source>
        <translation>linha</translation>
    </message>
    <message>
        <source>access</source>
        <translation>acesso</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>requisições</translation>
    </message>
    <message>
        <source>wavefronts</source>
        <translation>frentes de onda</translation>
    </message>
    <message>
        <source>sectors</source>
        <translation>setores</translation>
    </message>
    <message>
        <source>ideal sectors</source>
        <translation>setores ideais</translation>
    </message>
    <message>
        <source>per request</source>
        <translation>por requisição</translation>
    </message>
    <message>
        <source>source</source>
        <translation>código</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>space direction</comment>
        <extracomment>%1 the memory space (shared, global), %2 the direction (load, store, atomic)</extracomment>
        <translation>%2 %1</translation>
    </message>
</context>
<context>
    <name>StatusPanel</name>
    <message>
        <source>no run yet</source>
        <translation>nenhuma execução ainda</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>✔ verified: %Ln value(s)</source>
        <translation>
            <numerusform>✔ verificado: %Ln valor</numerusform>
            <numerusform>✔ verificado: %Ln valores</numerusform>
        </translation>
    </message>
    <message>
        <source>
%1: expected %2, got %3</source>
        <translation>
%1: esperado %2, obtido %3</translation>
    </message>
    <message numerus="yes">
        <source>✘ NOT verified: %1 of %Ln value(s) differ%2</source>
        <translation>
            <numerusform>✘ NÃO verificado: %1 de %Ln valor difere%2</numerusform>
            <numerusform>✘ NÃO verificado: %1 de %Ln valores diferem%2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 GB/s
median %2 ms (min %3, max %4)</source>
        <translation>%1 GB/s
mediana %2 ms (mín. %3, máx. %4)</translation>
    </message>
    <message numerus="yes">
        <source>%1  %2
%Ln timed run(s) on %3</source>
        <translation>
            <numerusform>%1  %2
%Ln execução cronometrada em %3</numerusform>
            <numerusform>%1  %2
%Ln execuções cronometradas em %3</numerusform>
        </translation>
    </message>
    <message>
        <source>
The working set fits in the last-level cache: this may be cache bandwidth.</source>
        <translation>
O conjunto de dados cabe no cache de último nível: isto pode ser largura de banda do cache.</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>recusado</translation>
    </message>
    <message>
        <source>%1 · %2 GB/s · median %3 ms</source>
        <translation>%1 · %2 GB/s · mediana %3 ms</translation>
    </message>
    <message>
        <source>✔ verified</source>
        <translation>✔ verificado</translation>
    </message>
    <message>
        <source>✘ NOT verified</source>
        <translation>✘ NÃO verificado</translation>
    </message>
    <message>
        <source>
Timed while other processes kept %1 of the machine&apos;s %2 cores busy: the times may be slower than on a quiet machine.</source>
        <translation>
Cronometrado enquanto outros processos mantinham ocupados %1 dos %2 núcleos da máquina: os tempos podem ser mais lentos que numa máquina ociosa.</translation>
    </message>
</context>
<context>
    <name>SweepChart</name>
    <message>
        <source>bandwidth (GB/s)</source>
        <translation>largura de banda (GB/s)</translation>
    </message>
    <message>
        <source>Sweep: F6 runs every variant of the family over one parameter</source>
        <translation>Varredura: F6 executa cada variante da família sobre um parâmetro</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>TraceView</name>
    <message>
        <source>atomic</source>
        <translation>atômica</translation>
    </message>
    <message>
        <source>atomic %1</source>
        <extracomment>%1 the operation as the machine names it (add, cas, exch, min, ...; &quot;add 1&quot;: a count)</extracomment>
        <translation>atômica %1</translation>
    </message>
    <message>
        <source>Open a recording (.threadmap) or record a trace to see what the threads did.</source>
        <translation>Abra uma gravação (.threadmap) ou grave um rastro para ver o que as threads fizeram.</translation>
    </message>
    <message>
        <source> (%1 merged by the compiler into one %2-byte access)</source>
        <translation> (%1 juntados pelo compilador num só acesso de %2 bytes)</translation>
    </message>
    <message>
        <source>store</source>
        <translation>escrita</translation>
    </message>
    <message>
        <source>load</source>
        <translation>leitura</translation>
    </message>
</context>
<context>
    <name>TraceViewsWidget</name>
    <message>
        <source>Open recording...</source>
        <translation>Abrir gravação...</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grade</translation>
    </message>
    <message>
        <source>Banks</source>
        <translation>Bancos</translation>
    </message>
    <message>
        <source>Barrier</source>
        <translation>Barreira</translation>
    </message>
    <message>
        <source>Coalescing</source>
        <translation>Coalescência</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Escalonamento</translation>
    </message>
    <message>
        <source>Open recording</source>
        <translation>Abrir gravação</translation>
    </message>
    <message>
        <source>ThreadMap recordings (*.threadmap)</source>
        <translation>Gravações do ThreadMap (*.threadmap)</translation>
    </message>
    <message>
        <source>%1 holds no trace: record one with `threadmap-cli record`.</source>
        <translation>%1 não contém rastro: grave um com `threadmap-cli record`.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>Não foi possível abrir %1: %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 · %3 · traced %4 of %5 blocks</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; em %2 · %3 · rastreados %4 de %5 blocos</translation>
    </message>
    <message>
        <source>No recording open. Open a .threadmap file, or record a trace.</source>
        <translation>Nenhuma gravação aberta. Abra um arquivo .threadmap ou grave um rastro.</translation>
    </message>
</context>
<context>
    <name>WorkerClient</name>
    <message>
        <source>the worker %1 could not start: %2</source>
        <translation>o executor %1 não pôde iniciar: %2</translation>
    </message>
    <message>
        <source>the worker gave no answer for %1 s</source>
        <translation>o executor não respondeu por %1 s</translation>
    </message>
    <message>
        <source>the worker sent a reply the GUI cannot read (%1): %2</source>
        <translation>o executor enviou uma resposta que a interface não consegue ler (%1): %2</translation>
    </message>
    <message>
        <source>the worker stopped unexpectedly (%1)</source>
        <translation>o executor parou inesperadamente (%1)</translation>
    </message>
    <message>
        <source>the worker exited with code %1</source>
        <translation>o executor saiu com o código %1</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>em %1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>ThreadMap: GPU teaching kernels run, verified and timed</source>
        <translation>ThreadMap: kernels didáticos de GPU executados, verificados e cronometrados</translation>
    </message>
    <message>
        <source>N: N x N matrices and N*N elements to sum</source>
        <translation>N: matrizes N x N e N*N elementos a somar</translation>
    </message>
    <message>
        <source>timed repetitions per run</source>
        <translation>repetições cronometradas por execução</translation>
    </message>
    <message>
        <source>the threadmap-cli to run as the worker</source>
        <translation>o threadmap-cli a executar como executor</translation>
    </message>
    <message>
        <source>kernel to select at start, e.g. transpose.shared</source>
        <translation>kernel a selecionar no início, p. ex. transpose.shared</translation>
    </message>
    <message>
        <source>seconds without a reply before the worker is restarted</source>
        <translation>segundos sem resposta antes de reiniciar o executor</translation>
    </message>
    <message>
        <source>quit after MS milliseconds (to check that an installed copy starts)</source>
        <translation>sair após MS milissegundos (para verificar que uma cópia instalada inicia)</translation>
    </message>
    <message>
        <source>a session file to open, or two to compare side by side</source>
        <translation>um arquivo de sessão para abrir, ou dois para comparar lado a lado</translation>
    </message>
    <message>
        <source>%1 files given: open one session, or compare two</source>
        <translation>%1 arquivos dados: abra uma sessão, ou compare duas</translation>
    </message>
    <message>
        <source>run the kernels on this GPU server, through ssh</source>
        <translation>rodar os kernels neste servidor GPU, via ssh</translation>
    </message>
    <message>
        <source>the ssh command line for --remote</source>
        <translation>a linha de comando do ssh para --remote</translation>
    </message>
</context>
</TS>
