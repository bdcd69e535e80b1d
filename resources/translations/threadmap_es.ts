<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
<context>
    <name>BankView</name>
    <message>
        <source>Shared-memory banks (%1 x %2 bytes)</source>
        <translation>Bancos de la memoria compartida (%1 x %2 bytes)</translation>
    </message>
    <message>
        <source>This kernel makes no shared-memory accesses.</source>
        <translation>Este kernel no accede a la memoria compartida.</translation>
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
        <translation>%1 (ideal %2): %3 repeticiones</translation>
    </message>
    <message>
        <source>serving wavefront %1 of %2</source>
        <translation>atendiendo el frente de onda %1 de %2</translation>
    </message>
    <message>
        <source>bank</source>
        <translation>banco</translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>fila %1</translation>
    </message>
    <message>
        <source>%1 (ideal %2): 1 replay</source>
        <translation>%1 (ideal %2): 1 repetición</translation>
    </message>
    <message>
        <source>shared array</source>
        <translation>arreglo compartido</translation>
    </message>
    <message>
        <source>store</source>
        <translation>escritura</translation>
    </message>
    <message>
        <source>load</source>
        <translation>lectura</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>non-shared</source>
        <translation>no compartida</translation>
    </message>
    <message numerus="yes">
        <source>This step is a %1 %2; shared accesses: %n request(s), %3 wavefronts (ideal %4), %5 so far.</source>
        <translation>
            <numerusform>Este paso es una %2 %1; accesos compartidos: %n solicitud, %3 frentes de onda (ideal %4), %5 hasta ahora.</numerusform>
            <numerusform>Este paso es una %2 %1; accesos compartidos: %n solicitudes, %3 frentes de onda (ideal %4), %5 hasta ahora.</numerusform>
        </translation>
    </message>
    <message>
        <source>block %1 warp %2, line %3 %4</source>
        <translation>bloque %1 warp %2, línea %3 %4</translation>
    </message>
    <message>
        <source>wavefronts so far %1 / %2 (ideal %3)</source>
        <translation>frentes de onda hasta ahora %1 / %2 (ideal %3)</translation>
    </message>
    <message>
        <source>padding hatched</source>
        <translation>relleno rayado</translation>
    </message>
    <message>
        <source>rows %1–%2</source>
        <translation>filas %1–%2</translation>
    </message>
    <message>
        <source>bank %1 of %2</source>
        <translation>%1 de %2 en los bancos</translation>
    </message>
    <message>
        <source>bank %1 of the %2 rows the request touches</source>
        <translation>%1 de las %2 filas que toca la solicitud</translation>
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
        <translation>desplazamiento compartido %1</translation>
    </message>
    <message>
        <source>thread %1</source>
        <translation>hilo %1</translation>
    </message>
    <message>
        <source>%1 writes it, line %2</source>
        <translation>%1 la escribe, línea %2</translation>
    </message>
    <message>
        <source>%1 reads it, line %2</source>
        <translation>%1 la lee, línea %2</translation>
    </message>
    <message>
        <source>shared offset %1: in no array</source>
        <translation>offset compartido %1: en ningún array</translation>
    </message>
    <message>
        <source>shared offset %1 (bank %2, row %3): in no array</source>
        <translation>offset compartido %1 (banco %2, fila %3): en ningún array</translation>
    </message>
    <message>
        <source>%1 writes there, line %2</source>
        <translation>%1 escribe ahí, línea %2</translation>
    </message>
    <message>
        <source>%1 reads there, line %2</source>
        <translation>%1 lee ahí, línea %2</translation>
    </message>
    <message>
        <source>(and 1 more lane of its warp)</source>
        <translation>(y 1 lane más de su warp)</translation>
    </message>
    <message>
        <source>(and %1 more lanes of its warp)</source>
        <translation>(y %1 lanes más de su warp)</translation>
    </message>
</context>
<context>
    <name>BarrierView</name>
    <message>
        <source>barrier </source>
        <translation>barrera </translation>
    </message>
    <message>
        <source>Which of the block&apos;s barriers to show</source>
        <translation>Qué barrera del bloque mostrar</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> de %1</translation>
    </message>
    <message>
        <source>Barrier: block %1</source>
        <translation>Barrera: bloque %1</translation>
    </message>
    <message>
        <source>Block %1 recorded no barrier: this kernel has no __syncthreads / barrier().</source>
        <translation>El bloque %1 no grabó ninguna barrera: este kernel no tiene __syncthreads / barrier().</translation>
    </message>
    <message>
        <source>, line %1</source>
        <translation>, línea %1</translation>
    </message>
    <message>
        <source>slowest: warp %1 (last of %2)</source>
        <translation>más lento: warp %1 (último de %2)</translation>
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
        <translation>%1 después de la primera llegada</translation>
    </message>
    <message>
        <source>arrival order (this device records no clock)</source>
        <translation>orden de llegada (este dispositivo no graba reloj)</translation>
    </message>
    <message>
        <source>green: each warp&apos;s recorded release, all after the last of %1 arrivals</source>
        <translation>verde: liberación grabada de cada warp, todas tras la última de %1 llegadas</translation>
    </message>
    <message>
        <source>every warp released after all %1 arrived (each saw every arrival)</source>
        <translation>cada warp se liberó después de que llegaran los %1 (cada uno vio todas las llegadas)</translation>
    </message>
    <message>
        <source>a warp was released before all arrived: inconsistent recording</source>
        <translation>un warp se liberó antes de que llegaran todos: grabación inconsistente</translation>
    </message>
    <message>
        <source>clock64 cycles</source>
        <translation>ciclos de clock64</translation>
    </message>
    <message>
        <source>slowest: warp %1 (+%2)</source>
        <translation>el más lento: warp %1 (+%2)</translation>
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
        <translation>ejecución solo con reloj, %1 MHz</translation>
    </message>
    <message>
        <source>clock-only run</source>
        <translation>ejecución solo con reloj</translation>
    </message>
    <message>
        <source>traced run</source>
        <translation>ejecución trazada</translation>
    </message>
    <message>
        <source>arrival order only</source>
        <translation>solo el orden de llegada</translation>
    </message>
    <message>
        <source>%1 passes in %2 blocks (%3): warp %4 last in %5%</source>
        <translation>%1 pasos en %2 bloques (%3): warp %4 último en el %5%</translation>
    </message>
    <message>
        <source>arrival spread: median %1, widest %2; this pass %3 (wider than %4%)</source>
        <translation>dispersión de llegadas: mediana %1, máxima %2; este paso %3 (mayor que el %4%)</translation>
    </message>
    <message>
        <source>arrival spread: median %1 places, widest %2</source>
        <translation>dispersión de llegadas: mediana %1 posiciones, máxima %2</translation>
    </message>
    <message>
        <source>release after the last arrival: median %1, max %2; this pass %3</source>
        <translation>liberación tras la última llegada: mediana %1, máxima %2; este paso %3</translation>
    </message>
    <message>
        <source>%1 of %2 warps never arrived: a barrier in divergent code</source>
        <translation>%1 de %2 warps nunca llegaron: una barrera en código divergente</translation>
    </message>
    <message>
        <source>the %1 warps that arrived were let go without the others: a barrier not every warp reaches is undefined behaviour</source>
        <translation>los %1 warps que llegaron siguieron sin los demás: una barrera que no todos los warps alcanzan es comportamiento indefinido</translation>
    </message>
    <message>
        <source>warp %1 never arrived</source>
        <translation>el warp %1 nunca llegó</translation>
    </message>
    <message>
        <source>warps %1–%2 never arrived</source>
        <translation>los warps %1–%2 nunca llegaron</translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>Copy (bandwidth ceiling)</source>
        <translation>Copia (techo de ancho de banda)</translation>
    </message>
    <message>
        <source>A plain copy with the coalesced kernel&apos;s tiling and 16-byte strips: both sides coalesced. Every transpose chart measures against it.</source>
        <translation>Una copia simple con las baldosas y las franjas de 16 bytes del kernel coalescido: ambos lados coalescidos. Todo gráfico de transposición se mide frente a ella.</translation>
    </message>
    <message>
        <source>Naive transpose</source>
        <translation>Transposición ingenua</translation>
    </message>
    <message>
        <source>Thread x walks down the rows: every read is strided (one sector per thread), every write coalesced.</source>
        <translation>El hilo x baja por las filas: cada lectura es espaciada (un sector por hilo), cada escritura coalescida.</translation>
    </message>
    <message>
        <source>Shared-memory tile (lesson)</source>
        <translation>Baldosa en memoria compartida (lección)</translation>
    </message>
    <message>
        <source>tile[T][T+P] with the lessons&apos; mapping: i still comes from thread x, so BOTH global sides are strided and it runs slower than naive on a GPU. P=0 the OpenCL lesson (column reads conflict), P=1 the CUDA lesson (no conflicts).</source>
        <translation>tile[T][T+P] con la asignación de las lecciones: i sigue viniendo del hilo x, así que AMBOS lados globales son espaciados y es más lento que el ingenuo en una GPU. P=0 es la lección de OpenCL (las lecturas por columna entran en conflicto), P=1 la lección de CUDA (sin conflictos).</translation>
    </message>
    <message>
        <source>Dynamic shared-memory tile (lesson)</source>
        <translation>Baldosa dinámica en memoria compartida (lección)</translation>
    </message>
    <message>
        <source>The CUDA lesson&apos;s extern __shared__ tile sized at launch (T*T elements, no padding): the same mapping and the same strided global accesses.</source>
        <translation>La baldosa extern __shared__ de la lección de CUDA, dimensionada al lanzar (T*T elementos, sin relleno): la misma asignación y los mismos accesos globales espaciados.</translation>
    </message>
    <message>
        <source>Coalesced transpose</source>
        <translation>Transposición coalescida</translation>
    </message>
    <message>
        <source>The corrected mapping: thread x walks contiguous addresses on the read and on the write; the swap happens in the padded tile. Each thread moves 16-byte strips (4 ints or floats, 2 doubles), S of them, all loaded before the first store.</source>
        <translation>La asignación corregida: el hilo x recorre direcciones contiguas en la lectura y en la escritura; el intercambio ocurre en la baldosa con relleno. Cada hilo mueve S franjas de 16 bytes (4 ints o floats, 2 doubles), todas cargadas antes de la primera escritura.</translation>
    </message>
    <message>
        <source>One thread per row</source>
        <translation>Un hilo por fila</translation>
    </message>
    <message>
        <source>The CPU habit: each thread walks its own row, so a warp touches 32 rows at each step: uncoalesced.</source>
        <translation>La costumbre de la CPU: cada hilo recorre su propia fila, así que un warp toca 32 filas en cada paso: no coalescido.</translation>
    </message>
    <message>
        <source>One thread per column</source>
        <translation>Un hilo por columna</translation>
    </message>
    <message>
        <source>Each thread walks down a column: a warp touches 32 neighbours of one row, coalesced, but there are only `width` threads.</source>
        <translation>Cada hilo baja por una columna: un warp toca 32 vecinos de una fila, coalescido, pero solo hay `width` hilos.</translation>
    </message>
    <message>
        <source>K elements per thread</source>
        <translation>K elementos por hilo</translation>
    </message>
    <message>
        <source>A 2-D grid, x fastest: coalesced and enough threads to fill the device. K=1 is one thread per element; with K=2 each thread loads two pairs before it stores, and twice the loads are in flight.</source>
        <translation>Una malla 2-D, x la más rápida: coalescido y con hilos suficientes para llenar el dispositivo. K=1 es un hilo por elemento; con K=2 cada hilo carga dos pares antes de escribir, y hay el doble de cargas en curso.</translation>
    </message>
    <message>
        <source>Interleaved tree (lesson)</source>
        <translation>Árbol intercalado (lección)</translation>
    </message>
    <message>
        <source>The lesson&apos;s tree: idx = 2*stride*lid. Active threads spread out and shared accesses conflict more at every step.</source>
        <translation>El árbol de la lección: idx = 2*stride*lid. Los hilos activos se dispersan y los accesos compartidos entran más en conflicto en cada paso.</translation>
    </message>
    <message>
        <source>Divergent tree</source>
        <translation>Árbol divergente</translation>
    </message>
    <message>
        <source>if (lid % (2*stride) == 0): the same pairs, but the active threads are scattered over all warps, which diverge.</source>
        <translation>if (lid % (2*stride) == 0): los mismos pares, pero los hilos activos quedan repartidos por todos los warps, que divergen.</translation>
    </message>
    <message>
        <source>Sequential addressing</source>
        <translation>Direccionamiento secuencial</translation>
    </message>
    <message>
        <source>The stride halves from wg/2: active threads are contiguous, whole warps retire, no bank conflicts.</source>
        <translation>El paso se reduce a la mitad desde wg/2: los hilos activos son contiguos, warps enteros terminan, sin conflictos de banco.</translation>
    </message>
    <message>
        <source>Grid-stride + warp shuffles</source>
        <translation>Paso de malla + shuffles de warp</translation>
    </message>
    <message>
        <source>More work per thread (a grid-stride sum), a shared-memory tree down to one warp, then shuffles: the one to aim at.</source>
        <translation>Más trabajo por hilo (una suma con paso de malla), un árbol en memoria compartida hasta un warp, luego shuffles: el objetivo a alcanzar.</translation>
    </message>
    <message>
        <source>Store and load along rows: 1 wavefront each.</source>
        <translation>Escritura y lectura a lo largo de las filas: 1 frente de onda cada una.</translation>
    </message>
    <message>
        <source>Store and load along columns: 32-way conflicts both ways.</source>
        <translation>Escritura y lectura a lo largo de las columnas: conflictos de 32 vías en ambos sentidos.</translation>
    </message>
    <message>
        <source>Store by rows (free), load by columns (32-way conflicts).</source>
        <translation>Escritura por filas (libre), lectura por columnas (conflictos de 32 vías).</translation>
    </message>
    <message>
        <source>setRowReadCol with a dynamically sized tile: the same conflicts.</source>
        <translation>setRowReadCol con una baldosa de tamaño dinámico: los mismos conflictos.</translation>
    </message>
    <message>
        <source>One word of padding per row: the column load becomes conflict-free.</source>
        <translation>Una palabra de relleno por fila: la lectura por columna queda sin conflictos.</translation>
    </message>
    <message>
        <source>Padding in the dynamic tile&apos;s index arithmetic: conflict-free.</source>
        <translation>Relleno en la aritmética de índices de la baldosa dinámica: sin conflictos.</translation>
    </message>
    <message>
        <source>A 32 x 16 tile read by columns: 16-way conflicts.</source>
        <translation>Una baldosa de 32 x 16 leída por columnas: conflictos de 16 vías.</translation>
    </message>
    <message>
        <source>The rectangular column read with a dynamic tile: 16-way conflicts.</source>
        <translation>La lectura rectangular por columnas con una baldosa dinámica: conflictos de 16 vías.</translation>
    </message>
    <message>
        <source>Rectangular tile padded by P: pad 1 leaves 2-way conflicts, pad 2 none.</source>
        <translation>Baldosa rectangular con relleno P: pad 1 deja conflictos de 2 vías, pad 2 ninguno.</translation>
    </message>
    <message>
        <source>Dynamic rectangular tile padded by P in the index arithmetic.</source>
        <translation>Baldosa rectangular dinámica con relleno P en la aritmética de índices.</translation>
    </message>
    <message>
        <source>matrix width (columns of the input)</source>
        <translation>ancho de la matriz (columnas de la entrada)</translation>
    </message>
    <message>
        <source>matrix height (rows of the input)</source>
        <translation>alto de la matriz (filas de la entrada)</translation>
    </message>
    <message>
        <source>tile edge T of the T x T tile one block moves</source>
        <translation>lado T de la baldosa T x T que mueve un bloque</translation>
    </message>
    <message>
        <source>16-byte strips S each thread moves (V = 4 ints or floats or 2 doubles per strip; a T/V x T/S block)</source>
        <translation>franjas S de 16 bytes que mueve cada hilo (V = 4 ints o floats o 2 doubles por franja; un bloque T/V x T/S)</translation>
    </message>
    <message>
        <source>element type (double shows 8-byte bank behaviour)</source>
        <translation>tipo de los elementos (double muestra el comportamiento de los bancos con 8 bytes)</translation>
    </message>
    <message>
        <source>tile edge T: a T x T block of threads per tile</source>
        <translation>lado T de la baldosa: un bloque de T x T hilos por baldosa</translation>
    </message>
    <message>
        <source>elements of padding P added to each tile row</source>
        <translation>elementos de relleno P añadidos a cada fila de la baldosa</translation>
    </message>
    <message>
        <source>work-group size (threads per block)</source>
        <translation>tamaño del grupo de trabajo (hilos por bloque)</translation>
    </message>
    <message>
        <source>threads per block along x (the fastest index)</source>
        <translation>hilos por bloque a lo largo de x (el índice más rápido)</translation>
    </message>
    <message>
        <source>threads per block along y</source>
        <translation>hilos por bloque a lo largo de y</translation>
    </message>
    <message>
        <source>elements K each thread adds, a block-width apart along the row</source>
        <translation>elementos K que suma cada hilo, separados un ancho de bloque a lo largo de la fila</translation>
    </message>
    <message>
        <source>number of elements to sum</source>
        <translation>número de elementos a sumar</translation>
    </message>
    <message>
        <source>blocks in the first pass&apos;s grid</source>
        <translation>bloques en la malla de la primera pasada</translation>
    </message>
    <message>
        <source>blocks in the grid, each writing its own slice</source>
        <translation>bloques en la malla, cada uno escribiendo su propia porción</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 a %2</translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <translation>%1 o %2</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>uno de %1</translation>
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
        <translation>Columnas, repartidas entre las lanes (simd)</translation>
    </message>
    <message>
        <source>The column loop as `parallel for simd`: under GCC, whose OpenMP thread is a whole warp, the columns an OpenMP thread holds go to neighbouring lanes: as many lanes share a request as the thread holds columns (at most 32), few where the matrix is narrow.</source>
        <translation>El bucle de columnas como `parallel for simd`: con GCC, cuyo hilo OpenMP es un warp entero, las columnas que recibe un hilo OpenMP van a lanes vecinas: tantas lanes comparten una solicitud como columnas recibe el hilo (como mucho 32), pocas donde la matriz es estrecha.</translation>
    </message>
    <message>
        <source>Rows, each shared by a warp&apos;s lanes (simd)</source>
        <translation>Filas, cada una repartida entre las lanes de un warp (simd)</translation>
    </message>
    <message>
        <source>The row loop over the OpenMP threads, each row&apos;s elements over the lanes of its warp (`omp simd`): coalesced under GCC, and every warp streams its own row.</source>
        <translation>El bucle de filas sobre los hilos OpenMP, los elementos de cada fila sobre las lanes de su warp (`omp simd`): coalescido con GCC, y cada warp recorre su propia fila.</translation>
    </message>
</context>
<context>
    <name>CoalescingView</name>
    <message>
        <source>Coalescing: 32-byte sectors per request</source>
        <translation>Coalescencia: sectores de 32 bytes por solicitud</translation>
    </message>
    <message>
        <source>This kernel makes no global accesses in the traced blocks.</source>
        <translation>Este kernel no hace accesos globales en los bloques trazados.</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>sectors of %1 by address, %2 bytes apart</source>
        <translation>sectores de %1 por dirección, a %2 bytes de distancia</translation>
    </message>
    <message>
        <source>sectors of %1 by address (bytes used of 32)</source>
        <translation>sectores de %1 por dirección (bytes usados de 32)</translation>
    </message>
    <message>
        <source>line %1: %2 per request (%3 in %4), ideal %5</source>
        <translation>línea %1: %2 por solicitud (%3 en %4), ideal %5</translation>
    </message>
    <message>
        <source>kernel so far: %1 / %2 sectors, ideal %3</source>
        <translation>kernel hasta ahora: %1 / %2 sectores, ideal %3</translation>
    </message>
    <message numerus="yes">
        <source>%n sector(s) for this request, ideal %1</source>
        <translation>
            <numerusform>%n sector para esta solicitud, ideal %1</numerusform>
            <numerusform>%n sectores para esta solicitud, ideal %1</numerusform>
        </translation>
    </message>
    <message>
        <source>store</source>
        <translation>escritura</translation>
    </message>
    <message>
        <source>load</source>
        <translation>lectura</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>compartida</translation>
    </message>
    <message>
        <source>non-global</source>
        <translation>no global</translation>
    </message>
    <message>
        <source>This step is a %1 %2; global accesses: %3 sectors (ideal %4), %5 so far.</source>
        <translation>Este paso es una %2 %1; accesos globales: %3 sectores (ideal %4), %5 hasta ahora.</translation>
    </message>
    <message>
        <source>line %1 %2 of %3</source>
        <translation>línea %1 %2 de %3</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Compare two recordings</source>
        <translation>Comparar dos grabaciones</translation>
    </message>
    <message>
        <source>Two recordings of one lesson family, side by side in the same trace view, stepping together by warp request.</source>
        <translation>Dos grabaciones de una misma familia de lecciones, lado a lado en la misma vista de la traza, avanzando juntas por solicitud de warp.</translation>
    </message>
    <message>
        <source>Other file…</source>
        <translation>Otro archivo…</translation>
    </message>
    <message>
        <source>Compare a recording</source>
        <translation>Comparar una grabación</translation>
    </message>
    <message>
        <source>&amp;Left</source>
        <translation>&amp;Izquierda</translation>
    </message>
    <message>
        <source>&amp;Right</source>
        <translation>&amp;Derecha</translation>
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
        <translation>Malla</translation>
    </message>
    <message>
        <source>Banks</source>
        <translation>Bancos</translation>
    </message>
    <message>
        <source>Barrier</source>
        <translation>Barrera</translation>
    </message>
    <message>
        <source>Coalescing</source>
        <translation>Coalescencia</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Planificación</translation>
    </message>
    <message>
        <source>both recordings need a trace to compare</source>
        <translation>las dos grabaciones necesitan una traza para comparar</translation>
    </message>
    <message>
        <source>nothing at this step</source>
        <translation>nada en este paso</translation>
    </message>
    <message>
        <source>block %1 warp %2 · request %3 of %4</source>
        <translation>bloque %1 warp %2 · solicitud %3 de %4</translation>
    </message>
    <message>
        <source>Compare… (F7) puts two recordings of a family here, side by side, stepping together; so does &lt;code&gt;threadmap A.threadmap B.threadmap&lt;/code&gt;.</source>
        <translation>Comparar… (F7) pone aquí dos grabaciones de una familia, lado a lado, avanzando juntas; también &lt;code&gt;threadmap A.threadmap B.threadmap&lt;/code&gt;.</translation>
    </message>
    <message>
        <source>Side by side, stepping together through the same block and warp at corresponding sites: %1 against %2</source>
        <translation>Lado a lado, avanzando juntos por el mismo bloque y warp en los puntos de acceso correspondientes: %1 contra %2</translation>
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
        <translation>Mostrar los controles (F9)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ejecución</translation>
    </message>
    <message>
        <source>&amp;Device</source>
        <translation>&amp;Dispositivo</translation>
    </message>
    <message>
        <source>&amp;Repetitions</source>
        <translation>&amp;Repeticiones</translation>
    </message>
    <message>
        <source>&amp;Traced blocks</source>
        <translation>Bloques &amp;trazados</translation>
    </message>
    <message>
        <source>auto (asking the worker …)</source>
        <translation>automático (preguntando al ejecutor …)</translation>
    </message>
    <message>
        <source>timed repetitions: the median, min and max are shown</source>
        <translation>repeticiones cronometradas: se muestran la mediana, el mínimo y el máximo</translation>
    </message>
    <message>
        <source>default</source>
        <translation>predeterminados</translation>
    </message>
    <message>
        <source>blocks Record trace (Ctrl+R) follows: empty for the first two blocks of the first two grid rows, &quot;all&quot;, or linear block ids such as 0, 1, 64 (id = x + grid width * y)</source>
        <translation>bloques que sigue Grabar traza (Ctrl+R): vacío para los dos primeros bloques de las dos primeras filas de la malla, &quot;all&quot; para todos, o ids lineales de bloque como 0, 1, 64 (id = x + ancho de la malla * y)</translation>
    </message>
    <message>
        <source>Parameters (Ctrl+P)</source>
        <translation>Parámetros (Ctrl+P)</translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation>Ejecutar (F5)</translation>
    </message>
    <message>
        <source>Sweep (F6)</source>
        <translation>Barrer (F6)</translation>
    </message>
    <message>
        <source>the parameter a sweep varies, over all its allowed values</source>
        <translation>el parámetro que varía el barrido, en todos sus valores permitidos</translation>
    </message>
    <message>
        <source>%1: unavailable (%2)</source>
        <translation>%1: no disponible (%2)</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation> en %1</translation>
    </message>
</context>
<context>
    <name>ExercisePanel</name>
    <message>
        <source>Run (F5)</source>
        <translation>Ejecutar (F5)</translation>
    </message>
    <message>
        <source>compile the text for the picked device, verify, time and trace it</source>
        <translation>compila el texto para el dispositivo elegido, y lo verifica, lo cronometra y lo traza</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Restablecer</translation>
    </message>
    <message>
        <source>back to the lesson&apos;s version of the text (Ctrl+Z undoes it)</source>
        <translation>vuelve a la versión del texto de la lección (Ctrl+Z lo deshace)</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Lado a lado</translation>
    </message>
    <message>
        <source>record the lesson&apos;s kernel too and show both recordings side by side</source>
        <translation>graba también el kernel de la lección y muestra las dos grabaciones lado a lado</translation>
    </message>
    <message>
        <source>Before you press F5: what will the trace show? Leave a field at &quot;none&quot; to skip it.</source>
        <translation>Antes de pulsar F5: ¿qué mostrará la traza? Deje un campo en &quot;ninguno&quot; para omitirlo.</translation>
    </message>
    <message>
        <source>&amp;Wavefronts per shared-memory request</source>
        <translation>&amp;Frentes de onda por solicitud de memoria compartida</translation>
    </message>
    <message>
        <source>&amp;Sectors per global-memory request</source>
        <translation>&amp;Sectores por solicitud de memoria global</translation>
    </message>
    <message>
        <source>Against the starting &amp;kernel</source>
        <translation>Comparado con el kernel &amp;inicial</translation>
    </message>
    <message>
        <source>Stop the run &amp;after (s)</source>
        <translation>Detener la ejecución des&amp;pués de (s)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>no prediction</source>
        <translation>sin predicción</translation>
    </message>
    <message>
        <source>faster</source>
        <translation>más rápido</translation>
    </message>
    <message>
        <source>slower</source>
        <translation>más lento</translation>
    </message>
    <message>
        <source>a kernel that runs longer is stopped: the worker is restarted, your text stays</source>
        <translation>un kernel que tarde más se detiene: el ejecutor se reinicia y su texto se conserva</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tarea</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Predicción</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <source>Press F5 to compile and run your kernel on the picked device.</source>
        <translation>Pulse F5 para compilar y ejecutar su kernel en el dispositivo elegido.</translation>
    </message>
    <message>
        <source>Free editing: %1</source>
        <translation>Edición libre: %1</translation>
    </message>
    <message>
        <source>Free editing</source>
        <translation>Edición libre</translation>
    </message>
    <message>
        <source>an exercise (✔ goal met, … attempted), or free editing of the selected kernel</source>
        <translation>un ejercicio (✔ objetivo cumplido, … intentado), o edición libre del kernel seleccionado</translation>
    </message>
    <message>
        <source>&lt;b&gt;Your copy of %1&lt;/b&gt; (%2). Change it, press F5, and see what your threads did: the Trace tab (Ctrl+4) shows the recording. The catalog&apos;s version is not touched.</source>
        <translation>&lt;b&gt;Su copia de %1&lt;/b&gt; (%2). Modifíquela, pulse F5 y vea lo que hicieron sus hilos: la pestaña Traza (Ctrl+4) muestra la grabación. La versión del catálogo no se modifica.</translation>
    </message>
    <message>
        <source>Select a kernel, then Exercise ▸ Edit this kernel.</source>
        <translation>Seleccione un kernel y luego Ejercicio ▸ Editar este kernel.</translation>
    </message>
    <message>
        <source>, and </source>
        <translation> y </translation>
    </message>
    <message>
        <source>Show a hint (%1 of %2)</source>
        <translation>Mostrar una pista (%1 de %2)</translation>
    </message>
    <message numerus="yes">
        <source>Goal met (%n attempt(s)).</source>
        <translation>
            <numerusform>Objetivo cumplido (%n intento).</numerusform>
            <numerusform>Objetivo cumplido (%n intentos).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Attempted %n time(s); the goal is not met yet.</source>
        <translation>
            <numerusform>Intentado %n vez; el objetivo aún no se ha cumplido.</numerusform>
            <numerusform>Intentado %n veces; el objetivo aún no se ha cumplido.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>Sin empezar.</translation>
    </message>
    <message>
        <source>bank conflicts on loads</source>
        <translation>conflictos de banco en las lecturas</translation>
    </message>
    <message>
        <source>bank conflicts on stores</source>
        <translation>conflictos de banco en las escrituras</translation>
    </message>
    <message>
        <source>extra sectors read</source>
        <translation>sectores leídos de más</translation>
    </message>
    <message>
        <source>extra sectors written</source>
        <translation>sectores escritos de más</translation>
    </message>
    <message>
        <source>the output is verified</source>
        <translation>la salida está verificada</translation>
    </message>
    <message>
        <source>at most %1 bank conflicts on shared-memory loads</source>
        <translation>como máximo %1 conflictos de banco en las lecturas de memoria compartida</translation>
    </message>
    <message>
        <source>at most %1 bank conflicts on shared-memory stores</source>
        <translation>como máximo %1 conflictos de banco en las escrituras en memoria compartida</translation>
    </message>
    <message>
        <source>at most %1 sectors read beyond the fewest the loaded bytes need</source>
        <translation>como máximo %1 sectores leídos por encima del mínimo que requieren los bytes leídos</translation>
    </message>
    <message>
        <source>at most %1 sectors written beyond the fewest the stored bytes need</source>
        <translation>como máximo %1 sectores escritos por encima del mínimo que requieren los bytes escritos</translation>
    </message>
    <message>
        <source>Not run yet: F5 compiles and runs it on the picked device.</source>
        <translation>Aún no se ha ejecutado: F5 lo compila y lo ejecuta en el dispositivo elegido.</translation>
    </message>
    <message>
        <source>Your last edit of this text is back (it is saved as you type). Reset brings the lesson&apos;s version.</source>
        <translation>Ha vuelto su última edición de este texto (se guarda mientras escribe). Restablecer trae la versión de la lección.</translation>
    </message>
    <message>
        <source>The text this session was recorded with.</source>
        <translation>El texto con el que se grabó esta sesión.</translation>
    </message>
    <message>
        <source>A recorded session&apos;s text: F5 runs it again here.</source>
        <translation>El texto de una sesión grabada: F5 lo vuelve a ejecutar aquí.</translation>
    </message>
    <message>
        <source>nothing to run: select a kernel and choose Exercise ▸ Edit this kernel</source>
        <translation>nada que ejecutar: seleccione un kernel y elija Ejercicio ▸ Editar este kernel</translation>
    </message>
    <message>
        <source>your kernel is still running</source>
        <translation>su kernel aún se está ejecutando</translation>
    </message>
    <message>
        <source>the text is empty</source>
        <translation>el texto está vacío</translation>
    </message>
    <message>
        <source>%1 is CUDA: pick a CUDA device, or edit the OpenCL version on this one</source>
        <translation>%1 es CUDA: elija un dispositivo CUDA, o edite la versión OpenCL en este</translation>
    </message>
    <message>
        <source>%1 is OpenCL C: pick an OpenCL device (NVIDIA&apos;s OpenCL runs it on the GPU too)</source>
        <translation>%1 es OpenCL C: elija un dispositivo OpenCL (el OpenCL de NVIDIA también lo ejecuta en la GPU)</translation>
    </message>
    <message>
        <source>your kernel did not finish within %1 s (an endless loop, or a size too large for the device?); it was stopped and the worker restarted. Your text is kept.</source>
        <translation>su kernel no terminó en %1 s (¿un bucle infinito, o un tamaño demasiado grande para el dispositivo?); se detuvo y se reinició el ejecutor. Su texto se conserva.</translation>
    </message>
    <message>
        <source>Compiling and running %1 on %2 …</source>
        <translation>Compilando y ejecutando %1 en %2 …</translation>
    </message>
    <message>
        <source>running your %1 on %2 …</source>
        <translation>ejecutando su %1 en %2 …</translation>
    </message>
    <message>
        <source>the worker&apos;s record reply names no session file</source>
        <translation>la respuesta de grabación del ejecutor no indica ningún archivo de sesión</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>línea %1: %2</translation>
    </message>
    <message>
        <source>Not compiled: the compiler stopped at line %1. Its messages are under the text; the marked lines show them too.</source>
        <translation>No compilado: el compilador se detuvo en la línea %1. Sus mensajes están debajo del texto; las líneas marcadas también los muestran.</translation>
    </message>
    <message>
        <source>Not compiled: %1</source>
        <translation>No compilado: %1</translation>
    </message>
    <message>
        <source>✘ Not compiled: line %1: %2</source>
        <translation>✘ No compilado: línea %1: %2</translation>
    </message>
    <message>
        <source>✘ Not compiled</source>
        <translation>✘ No compilado</translation>
    </message>
    <message>
        <source>%1 does not compile (line %2)</source>
        <translation>%1 no compila (línea %2)</translation>
    </message>
    <message>
        <source>Recorded; timing the starting kernel for your speed prediction …</source>
        <translation>Grabado; cronometrando el kernel inicial para su predicción de velocidad …</translation>
    </message>
    <message>
        <source>compiled for %1</source>
        <translation>compilado para %1</translation>
    </message>
    <message>
        <source>verified against the CPU reference</source>
        <translation>verificado con la referencia de la CPU</translation>
    </message>
    <message>
        <source>&lt;b&gt;not verified&lt;/b&gt;: the output differs from the CPU reference</source>
        <translation>&lt;b&gt;no verificado&lt;/b&gt;: la salida difiere de la referencia de la CPU</translation>
    </message>
    <message>
        <source>verified against the pack&apos;s reference kernel</source>
        <translation>verificado con el kernel de referencia del paquete</translation>
    </message>
    <message>
        <source>&lt;b&gt;not verified&lt;/b&gt;: the output differs from the pack&apos;s reference kernel</source>
        <translation>&lt;b&gt;no verificado&lt;/b&gt;: la salida difiere del kernel de referencia del paquete</translation>
    </message>
    <message>
        <source>measured %1</source>
        <translation>medido %1</translation>
    </message>
    <message>
        <source>Goal met.</source>
        <translation>Objetivo cumplido.</translation>
    </message>
    <message>
        <source>Goal not met yet.</source>
        <translation>Objetivo aún no cumplido.</translation>
    </message>
    <message>
        <source>median %1 ms, %2 GB/s</source>
        <translation>mediana %1 ms, %2 GB/s</translation>
    </message>
    <message>
        <source>%1: you predicted %2; the trace has no such requests.</source>
        <translation>%1: predijo %2; la traza no tiene solicitudes de ese tipo.</translation>
    </message>
    <message>
        <source>%1: you predicted %2; every one of the %3 requests took %2.</source>
        <translation>%1: predijo %2; cada una de las %3 solicitudes necesitó %2.</translation>
    </message>
    <message>
        <source>%1: you predicted %2; measured %3 (mean %4). The trace views are at request %5, the first that differs: &lt;a href=&apos;trace&apos;&gt;see it (Ctrl+4)&lt;/a&gt;.</source>
        <translation>%1: predijo %2; medido %3 (media %4). Las vistas de la traza están en la solicitud %5, la primera que difiere: &lt;a href=&apos;trace&apos;&gt;véala (Ctrl+4)&lt;/a&gt;.</translation>
    </message>
    <message>
        <source>Wavefronts per shared-memory request</source>
        <translation>Frentes de onda por solicitud de memoria compartida</translation>
    </message>
    <message>
        <source>Sectors per global-memory request</source>
        <translation>Sectores por solicitud de memoria global</translation>
    </message>
    <message>
        <source>Against the starting kernel: you predicted %1; measured %2× its bandwidth (%3 against %4 GB/s).</source>
        <translation>Comparado con el kernel inicial: predijo %1; medido %2× su ancho de banda (%3 frente a %4 GB/s).</translation>
    </message>
    <message>
        <source>The starting kernel could not be timed on this device, so the speed prediction stays open.</source>
        <translation>No se pudo cronometrar el kernel inicial en este dispositivo, así que la predicción de velocidad queda abierta.</translation>
    </message>
    <message>
        <source>✔ Goal met</source>
        <translation>✔ Objetivo cumplido</translation>
    </message>
    <message>
        <source>✘ Goal not met yet</source>
        <translation>✘ Objetivo aún no cumplido</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verificado</translation>
    </message>
    <message>
        <source>not verified</source>
        <translation>no verificado</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>%1: goal met</source>
        <translation>%1: objetivo cumplido</translation>
    </message>
    <message>
        <source>%1: goal not met yet</source>
        <translation>%1: objetivo aún no cumplido</translation>
    </message>
    <message>
        <source>%1 ran: %2</source>
        <translation>%1 ejecutado: %2</translation>
    </message>
    <message>
        <source>the recording of your kernel could not be opened; the status bar says why</source>
        <translation>no se pudo abrir la grabación de su kernel; la barra de estado dice por qué</translation>
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
        <translation>%1 está escrito en %2: un dispositivo CUDA ejecuta el texto .cu de un ejercicio, uno OpenCL su texto .cl, y el ejercicio se abre en el del dispositivo elegido</translation>
    </message>
    <message>
        <source>Your edited %1 stays open: it is %2, and the picked device runs %3; pick a device that runs %2 to run it</source>
        <translation>Su %1 editado sigue abierto: es %2, y el dispositivo elegido ejecuta %3; elija un dispositivo que ejecute %2 para ejecutarlo</translation>
    </message>
    <message>
        <source>&lt;i&gt;This exercise is no longer in its pack (the pack was read again): your text stays here. Pick another exercise, or free editing.&lt;/i&gt;&lt;br&gt;</source>
        <translation>&lt;i&gt;Este ejercicio ya no está en su paquete (el paquete se leyó de nuevo): su texto sigue aquí. Elija otro ejercicio, o edición libre.&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>%1 (removed)</source>
        <translation>%1 (retirado)</translation>
    </message>
    <message>
        <source>no longer in its pack: your text stays open here</source>
        <translation>ya no está en su paquete: su texto sigue abierto aquí</translation>
    </message>
    <message>
        <source>&lt;i&gt;Lesson: %1&lt;/i&gt;&lt;br&gt;</source>
        <translation>&lt;i&gt;Lección: %1&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Goal:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Objetivo:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>the trace shows a problem: %1</source>
        <translation>la traza muestra un problema: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) in the trace</source>
        <translation>
            <numerusform>%n problema en la traza</numerusform>
            <numerusform>%n problemas en la traza</numerusform>
        </translation>
    </message>
    <message>
        <source>measured %1, bound %2</source>
        <translation>medido %1, límite %2</translation>
    </message>
    <message>
        <source>verified at %1 too</source>
        <translation>verificado también en %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;not verified&lt;/b&gt; at %1: %2</source>
        <translation>&lt;b&gt;no verificado&lt;/b&gt; en %1: %2</translation>
    </message>
    <message>
        <source>first failed at %1 (seed %2)</source>
        <translation>falló primero en %1 (semilla %2)</translation>
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
        <translation>una grabación sin traza no se puede animar</translation>
    </message>
    <message>
        <source>the trace has no requests to step through</source>
        <translation>la traza no tiene solicitudes que recorrer</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>no se puede escribir %1</translation>
    </message>
    <message>
        <source>encoding a frame failed: %1</source>
        <translation>la codificación de un fotograma falló: %1</translation>
    </message>
    <message>
        <source>writing %1 failed: %2</source>
        <translation>la escritura de %1 falló: %2</translation>
    </message>
    <message>
        <source>this libavcodec has no VP9 or VP8 encoder (Debian&apos;s libavcodec59 has libvpx&apos;s)</source>
        <translation>esta libavcodec no tiene codificador VP9 ni VP8 (la libavcodec59 de Debian tiene los de libvpx)</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>no se puede escribir %1: %2</translation>
    </message>
</context>
<context>
    <name>FamilyChart</name>
    <message>
        <source>kernel bandwidth (GB/s)</source>
        <translation>ancho de banda del kernel (GB/s)</translation>
    </message>
    <message>
        <source>variant</source>
        <translation>variante</translation>
    </message>
    <message>
        <source>bandwidth (GB/s)</source>
        <translation>ancho de banda (GB/s)</translation>
    </message>
    <message>
        <source>%1: no runs yet (F5 runs the selected kernel)</source>
        <translation>%1: aún no hay ejecuciones (F5 ejecuta el kernel seleccionado)</translation>
    </message>
    <message>
        <source>%1: measured bandwidth</source>
        <translation>%1: ancho de banda medido</translation>
    </message>
    <message>
        <source>device copy: %1 GB/s</source>
        <translation>copia en el dispositivo: %1 GB/s</translation>
    </message>
    <message>
        <source>bandwidth (GB/s, log scale)</source>
        <translation>ancho de banda (GB/s, escala logarítmica)</translation>
    </message>
    <message>
        <source>%1 · device copy %2 GB/s</source>
        <translation>%1 · copia en el dispositivo %2 GB/s</translation>
    </message>
</context>
<context>
    <name>GridView</name>
    <message>
        <source>Grid: what the traced blocks read and wrote</source>
        <translation>Malla: lo que los bloques trazados leyeron y escribieron</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>compartida</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>This kernel made no global accesses in the traced blocks.</source>
        <translation>Este kernel no hizo accesos globales en los bloques trazados.</translation>
    </message>
    <message>
        <source>%1 (%2), %3 x %4</source>
        <translation>%1 (%2), %3 x %4</translation>
    </message>
    <message>
        <source>rows %1-%2, cols %3-%4</source>
        <translation>filas %1-%2, columnas %3-%4</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>bloque %1</translation>
    </message>
    <message>
        <source>read now</source>
        <translation>leído ahora</translation>
    </message>
    <message>
        <source>written now</source>
        <translation>escrito ahora</translation>
    </message>
    <message>
        <source>read earlier (this block)</source>
        <translation>leído antes (este bloque)</translation>
    </message>
    <message>
        <source>written earlier (this block)</source>
        <translation>escrito antes (este bloque)</translation>
    </message>
    <message>
        <source>other traced blocks</source>
        <translation>otros bloques trazados</translation>
    </message>
    <message>
        <source>input</source>
        <translation>entrada</translation>
    </message>
    <message>
        <source>output</source>
        <translation>salida</translation>
    </message>
    <message>
        <source>scratch</source>
        <translation>auxiliar</translation>
    </message>
    <message>
        <source>block %1, warp %2, line %3 %4 %5</source>
        <translation>bloque %1, warp %2, línea %3 %5 %4</translation>
    </message>
    <message>
        <source>global accesses %1 / %2</source>
        <translation>accesos globales %1 / %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>outside: &apos;%1&apos; − %2 bytes</source>
        <translation>fuera: &apos;%1&apos; − %2 bytes</translation>
    </message>
    <message>
        <source>outside: &apos;%1&apos; + %2 bytes</source>
        <translation>fuera: &apos;%1&apos; + %2 bytes</translation>
    </message>
    <message>
        <source>outside: buffer &apos;%1&apos; − %2 bytes (holds %3)</source>
        <translation>fuera: buffer &apos;%1&apos; − %2 bytes (tiene %3)</translation>
    </message>
    <message>
        <source>outside: buffer &apos;%1&apos; + %2 bytes (holds %3)</source>
        <translation>fuera: buffer &apos;%1&apos; + %2 bytes (tiene %3)</translation>
    </message>
    <message>
        <source>%1 writes there, line %2</source>
        <translation>%1 escribe ahí, línea %2</translation>
    </message>
    <message>
        <source>%1 reads there, line %2</source>
        <translation>%1 lee ahí, línea %2</translation>
    </message>
    <message>
        <source>(and 1 more lane of its warp)</source>
        <translation>(y 1 lane más de su warp)</translation>
    </message>
    <message>
        <source>(and %1 more lanes of its warp)</source>
        <translation>(y %1 lanes más de su warp)</translation>
    </message>
</context>
<context>
    <name>KernelTree</name>
    <message>
        <source>Lesson / kernel</source>
        <translation>Lección / kernel</translation>
    </message>
    <message>
        <source>Lesson section</source>
        <translation>Sección de la lección</translation>
    </message>
    <message>
        <source>  (corrected, not in the lesson)</source>
        <translation>  (corregido, no está en la lección)</translation>
    </message>
    <message>
        <source>Matrix transpose (shared memory)</source>
        <translation>Transposición de matrices (memoria compartida)</translation>
    </message>
    <message>
        <source>Memory coalescing (matrix add)</source>
        <translation>Coalescencia de memoria (suma de matrices)</translation>
    </message>
    <message>
        <source>Parallel reduction</source>
        <translation>Reducción paralela</translation>
    </message>
    <message>
        <source>Shared-memory data layout</source>
        <translation>Disposición de datos en memoria compartida</translation>
    </message>
    <message>
        <source>%1 (pack %2)</source>
        <translation>%1 (paquete %2)</translation>
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
        <translation>Volver a mostrar la lección en el idioma de la interfaz</translation>
    </message>
    <message>
        <source>Show the lesson as it was written</source>
        <translation>Mostrar la lección tal como se escribió</translation>
    </message>
    <message>
        <source>The lesson %1 is not bundled with this build.</source>
        <translation>La lección %1 no está incluida en esta compilación.</translation>
    </message>
    <message>
        <source>No embedded source named %1.</source>
        <translation>No hay ningún código fuente incrustado llamado %1.</translation>
    </message>
    <message>
        <source>From the pack %1; it brings no lesson text.</source>
        <translation>Del paquete %1; no trae texto de lección.</translation>
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
        <translation>Barrido (Ctrl+2)</translation>
    </message>
    <message>
        <source>Recording (Ctrl+3)</source>
        <translation>Grabación (Ctrl+3)</translation>
    </message>
    <message>
        <source>Trace (Ctrl+4)</source>
        <translation>Traza (Ctrl+4)</translation>
    </message>
    <message>
        <source>Recorded just now</source>
        <translation>Grabado ahora mismo</translation>
    </message>
    <message>
        <source>worker %1 starting …</source>
        <translation>iniciando el ejecutor %1 …</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation>&amp;Abrir sesión…</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>Abrir sesión</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Abrir &amp;reciente</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(ninguno)</translation>
    </message>
    <message>
        <source>Open &amp;bundled recording</source>
        <translation>Abrir grabación &amp;incluida</translation>
    </message>
    <message>
        <source>&amp;Save session…</source>
        <translation>&amp;Guardar sesión…</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>Guardar sesión</translation>
    </message>
    <message>
        <source>&amp;Export chart or data…</source>
        <translation>E&amp;xportar gráfico o datos…</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ejecutar</translation>
    </message>
    <message>
        <source>&amp;Run the selected kernel</source>
        <translation>&amp;Ejecutar el kernel seleccionado</translation>
    </message>
    <message>
        <source>&amp;Sweep the family over the chosen parameter</source>
        <translation>&amp;Barrer la familia sobre el parámetro elegido</translation>
    </message>
    <message>
        <source>&amp;Cancel the sweep</source>
        <translation>&amp;Cancelar el barrido</translation>
    </message>
    <message>
        <source>Record &amp;trace of the selected kernel</source>
        <translation>&amp;Grabar la traza del kernel seleccionado</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Variants chart</source>
        <translation>Gráfico de &amp;variantes</translation>
    </message>
    <message>
        <source>S&amp;weep chart</source>
        <translation>Gráfico de &amp;barrido</translation>
    </message>
    <message>
        <source>&amp;Recording</source>
        <translation>G&amp;rabación</translation>
    </message>
    <message>
        <source>&amp;Trace views</source>
        <translation>Vistas de la &amp;traza</translation>
    </message>
    <message>
        <source>&amp;Kernel list</source>
        <translation>Lista de &amp;kernels</translation>
    </message>
    <message>
        <source>&amp;Device picker</source>
        <translation>Selector de &amp;dispositivo</translation>
    </message>
    <message>
        <source>&amp;Parameters</source>
        <translation>&amp;Parámetros</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Idioma</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Atajos de teclado</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>no device is available: see the reasons in the device list</source>
        <translation>no hay ningún dispositivo disponible: vea los motivos en la lista de dispositivos</translation>
    </message>
    <message>
        <source>pick a kernel first (Ctrl+K)</source>
        <translation>elija primero un kernel (Ctrl+K)</translation>
    </message>
    <message>
        <source>no temporary folder for recordings: %1</source>
        <translation>no hay carpeta temporal para grabaciones: %1</translation>
    </message>
    <message>
        <source>this kernel has no parameter with a small set of values to sweep</source>
        <translation>este kernel no tiene ningún parámetro con un conjunto pequeño de valores para barrer</translation>
    </message>
    <message>
        <source>%1
recorded on %2</source>
        <translation>%1
grabado en %2</translation>
    </message>
    <message>
        <source>%1: bandwidth over %2</source>
        <translation>%1: ancho de banda según %2</translation>
    </message>
    <message>
        <source>%1: export as .png, .pdf, .svg, .csv or .json</source>
        <translation>%1: exporte como .png, .pdf, .svg, .csv o .json</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>exportado %1</translation>
    </message>
    <message>
        <source>nothing to save yet: run a kernel (F5) or record its trace (Ctrl+R)</source>
        <translation>aún no hay nada que guardar: ejecute un kernel (F5) o grabe su traza (Ctrl+R)</translation>
    </message>
    <message>
        <source>saved %1</source>
        <translation>guardado %1</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>Abierto %1</translation>
    </message>
    <message>
        <source>no kernel &apos;%1&apos; in the catalog</source>
        <translation>no hay ningún kernel &apos;%1&apos; en el catálogo</translation>
    </message>
    <message>
        <source>no bundled recording of %1</source>
        <translation>no hay ninguna grabación incluida de %1</translation>
    </message>
    <message>
        <source>Bundled recording</source>
        <translation>Grabación incluida</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>the session&apos;s kernel &apos;%1&apos; is not in this catalog</source>
        <translation>el kernel &apos;%1&apos; de la sesión no está en este catálogo</translation>
    </message>
    <message>
        <source>the session&apos;s timed run is malformed: %1</source>
        <translation>la ejecución cronometrada de la sesión está mal formada: %1</translation>
    </message>
    <message>
        <source>the session&apos;s trace cannot be analysed: %1</source>
        <translation>la traza de la sesión no se puede analizar: %1</translation>
    </message>
    <message>
        <source>%1: a recording made on %2 (%3) at %4 by %5. F5 runs it live on the device picked above.</source>
        <translation>%1: una grabación hecha en %2 (%3) el %4 por %5. F5 la ejecuta en vivo en el dispositivo elegido arriba.</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2, %Ln traced block(s)</source>
        <translation>
            <numerusform>%1 en %2, %Ln bloque trazado</numerusform>
            <numerusform>%1 en %2, %Ln bloques trazados</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 en %2</translation>
    </message>
    <message>
        <source>The window is back to its default layout.</source>
        <translation>La ventana volvió a su disposición predeterminada.</translation>
    </message>
    <message>
        <source>Reset &amp;layout</source>
        <translation>Restablecer la &amp;disposición</translation>
    </message>
    <message>
        <source>&amp;Hide or show the controls</source>
        <translation>Ocultar o &amp;mostrar los controles</translation>
    </message>
    <message>
        <source>Chart &amp;scale</source>
        <translation>&amp;Escala del gráfico</translation>
    </message>
    <message>
        <source>&amp;Automatic</source>
        <translation>&amp;Automática</translation>
    </message>
    <message>
        <source>&amp;Linear</source>
        <translation>&amp;Lineal</translation>
    </message>
    <message>
        <source>L&amp;ogarithmic</source>
        <translation>L&amp;ogarítmica</translation>
    </message>
    <message>
        <source>Presentatio&amp;n mode</source>
        <translation>Modo prese&amp;ntación</translation>
    </message>
    <message>
        <source>Side by side (Ctrl+5)</source>
        <translation>Lado a lado (Ctrl+5)</translation>
    </message>
    <message>
        <source>&amp;Compare two recordings…</source>
        <translation>&amp;Comparar dos grabaciones…</translation>
    </message>
    <message>
        <source>Side &amp;by side</source>
        <translation>&amp;Lado a lado</translation>
    </message>
    <message>
        <source>the bundled %1</source>
        <translation>el %1 incluido</translation>
    </message>
    <message>
        <source>%1 holds no trace to compare: record one with Ctrl+R</source>
        <translation>%1 no tiene traza para comparar: grabe una con Ctrl+R</translation>
    </message>
    <message>
        <source>the trace of %1 cannot be analysed: %2</source>
        <translation>la traza de %1 no se puede analizar: %2</translation>
    </message>
    <message>
        <source>Side by side: %1 and %2</source>
        <translation>Lado a lado: %1 y %2</translation>
    </message>
    <message>
        <source>%1 · bundled recording (%2)</source>
        <translation>%1 · grabación incluida (%2)</translation>
    </message>
    <message>
        <source>GIF animation (*.gif);;WebM video (*.webm);;Numbered PNG frames (*.png)</source>
        <translation>Animación GIF (*.gif);;Vídeo WebM (*.webm);;Fotogramas PNG numerados (*.png)</translation>
    </message>
    <message>
        <source>nothing to export: Compare… (F7) picks two recordings first</source>
        <translation>nada que exportar: Comparar… (F7) elige antes dos grabaciones</translation>
    </message>
    <message>
        <source>nothing to export: open a recording (Ctrl+O) or record a trace (Ctrl+R) first</source>
        <translation>nada que exportar: abra una grabación (Ctrl+O) o grabe una traza (Ctrl+R) antes</translation>
    </message>
    <message>
        <source>%1: export an animation as .gif, .webm or .png (numbered frames)</source>
        <translation>%1: exporte una animación como .gif, .webm o .png (fotogramas numerados)</translation>
    </message>
    <message>
        <source>Writing %1 …</source>
        <translation>Escribiendo %1 …</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>export of %1 cancelled</source>
        <translation>exportación de %1 cancelada</translation>
    </message>
    <message>
        <source>Your kernel, run just now</source>
        <translation>Su kernel, ejecutado ahora mismo</translation>
    </message>
    <message>
        <source>Exercise (Ctrl+6)</source>
        <translation>Ejercicio (Ctrl+6)</translation>
    </message>
    <message>
        <source>&amp;Exercise</source>
        <translation>E&amp;jercicio</translation>
    </message>
    <message>
        <source>E&amp;xercise</source>
        <translation>E&amp;jercicio</translation>
    </message>
    <message>
        <source>&amp;Edit this kernel</source>
        <translation>&amp;Editar este kernel</translation>
    </message>
    <message>
        <source>E&amp;xercises</source>
        <translation>E&amp;jercicios</translation>
    </message>
    <message>
        <source>&amp;Run your kernel</source>
        <translation>Ejecutar &amp;su kernel</translation>
    </message>
    <message>
        <source>Re&amp;set to the lesson&apos;s version</source>
        <translation>&amp;Restablecer la versión de la lección</translation>
    </message>
    <message>
        <source>a recording is already in progress; Side by side waits for it to end</source>
        <translation>ya hay una grabación en curso; Lado a lado espera a que termine</translation>
    </message>
    <message>
        <source>Connect to a &amp;GPU server…</source>
        <translation>Conectar a un ser&amp;vidor GPU…</translation>
    </message>
    <message>
        <source>Connect to a GPU server</source>
        <translation>Conectar a un servidor GPU</translation>
    </message>
    <message>
        <source>The server&apos;s [user@]host[:port], reached with ssh (your keys and ssh config); ThreadMap must be installed there. Empty: this computer.</source>
        <translation>El [usuario@]host[:puerto] del servidor, alcanzado con ssh (sus claves y su configuración de ssh); ThreadMap debe estar instalado allí. Vacío: este ordenador.</translation>
    </message>
    <message>
        <source>kernels run on this computer</source>
        <translation>los kernels se ejecutan en este ordenador</translation>
    </message>
    <message>
        <source>connecting to %1 …</source>
        <translation>conectando a %1 …</translation>
    </message>
    <message>
        <source>Open &amp;pack…</source>
        <translation>Abrir &amp;paquete…</translation>
    </message>
    <message>
        <source>Open pack (a folder with a pack.toml)</source>
        <translation>Abrir paquete (una carpeta con un pack.toml)</translation>
    </message>
    <message>
        <source>The worker refused a pack: %1</source>
        <translation>El proceso de trabajo rechazó un paquete: %1</translation>
    </message>
    <message numerus="yes">
        <source>Pack %1 opened: %n kernel(s)</source>
        <translation>
            <numerusform>Paquete %1 abierto: %n kernel</numerusform>
            <numerusform>Paquete %1 abierto: %n kernels</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;New kernel…</source>
        <translation>&amp;Nuevo kernel…</translation>
    </message>
    <message>
        <source>New kernel</source>
        <translation>Nuevo kernel</translation>
    </message>
    <message>
        <source>A pack of your own, with a kernel to start from (CUDA and OpenCL C), in your packs folder. Its name (lowercase letters, digits, &apos;_&apos; or &apos;-&apos;):</source>
        <translation>Un paquete propio, con un kernel para empezar (CUDA y OpenCL C), en su carpeta de paquetes. Su nombre (minúsculas, dígitos, &apos;_&apos; o &apos;-&apos;):</translation>
    </message>
    <message>
        <source>Packs read again from their folders</source>
        <translation>Paquetes leídos de nuevo desde sus carpetas</translation>
    </message>
    <message>
        <source>New kernel %1: edit %2/scale.cl or scale.cu and its lesson scale.md, then File ▸ Reload packs</source>
        <translation>Nuevo kernel %1: edite %2/scale.cl o scale.cu y su lección scale.md, luego Archivo ▸ Recargar paquetes</translation>
    </message>
    <message>
        <source>Reloa&amp;d packs</source>
        <translation>Recargar pa&amp;quetes</translation>
    </message>
</context>
<context>
    <name>PackLibrary</name>
    <message>
        <source>The pack in %1 is open already (File ▸ Reload packs reads its files anew).</source>
        <translation>El paquete de %1 ya está abierto (Archivo ▸ Recargar paquetes vuelve a leer sus archivos).</translation>
    </message>
    <message>
        <source>%1: a pack named &apos;%2&apos; is open already, from %3; give one of them another name in its pack.toml</source>
        <translation>%1: un paquete llamado &apos;%2&apos; ya está abierto, desde %3; dé a uno de ellos otro nombre en su pack.toml</translation>
    </message>
    <message>
        <source>%1: its pack&apos;s name is not the one read before (&apos;%2&apos;, now &apos;%3&apos;); start ThreadMap again to read it</source>
        <translation>%1: el nombre del paquete no es el leído antes (&apos;%2&apos;, ahora &apos;%3&apos;); inicie ThreadMap de nuevo para leerlo</translation>
    </message>
</context>
<context>
    <name>PlaybackBar</name>
    <message>
        <source>First request (Home)</source>
        <translation>Primera solicitud (Inicio)</translation>
    </message>
    <message>
        <source>Step back (Left)</source>
        <translation>Retroceder un paso (Izquierda)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausa</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Reproducir</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>Reproducir / pausa (Espacio)</translation>
    </message>
    <message>
        <source>Step forward (Right)</source>
        <translation>Avanzar un paso (Derecha)</translation>
    </message>
    <message>
        <source>Last request (End)</source>
        <translation>Última solicitud (Fin)</translation>
    </message>
    <message>
        <source>Slower (-)</source>
        <translation>Más lento (-)</translation>
    </message>
    <message>
        <source>Faster (+)</source>
        <translation>Más rápido (+)</translation>
    </message>
    <message>
        <source>The recorded warp-level requests, in device order</source>
        <translation>Las solicitudes grabadas a nivel de warp, en el orden del dispositivo</translation>
    </message>
    <message>
        <source>%1 requests/s</source>
        <translation>%1 solicitudes/s</translation>
    </message>
    <message>
        <source>No recorded requests.</source>
        <translation>No hay solicitudes grabadas.</translation>
    </message>
    <message>
        <source>request %1 / %2 · shared wavefronts %3 / %4 · global sectors %5 / %6</source>
        <translation>solicitud %1 / %2 · frentes de onda compartidos %3 / %4 · sectores globales %5 / %6</translation>
    </message>
</context>
<context>
    <name>ProblemsView</name>
    <message>
        <source>Data race: read after write</source>
        <translation>Carrera de datos: lectura tras escritura</translation>
    </message>
    <message>
        <source>Data race: write after read</source>
        <translation>Carrera de datos: escritura tras lectura</translation>
    </message>
    <message>
        <source>Data race: write after write</source>
        <translation>Carrera de datos: escritura tras escritura</translation>
    </message>
    <message>
        <source>Uninitialised read</source>
        <translation>Lectura sin inicializar</translation>
    </message>
    <message>
        <source>Out of bounds</source>
        <translation>Fuera de límites</translation>
    </message>
    <message>
        <source>Barrier in divergent code</source>
        <translation>Barrera en código divergente</translation>
    </message>
    <message>
        <source>thread %1</source>
        <translation>hilo %1</translation>
    </message>
    <message>
        <source>thread %1 (%2,%3)</source>
        <translation>hilo %1 (%2,%3)</translation>
    </message>
    <message>
        <source>%1 - %2 bytes (before the buffer&apos;s start)</source>
        <translation>%1 - %2 bytes (antes del inicio del búfer)</translation>
    </message>
    <message>
        <source>%1 + %2 bytes (the buffer holds %3)</source>
        <translation>%1 + %2 bytes (el búfer tiene %3)</translation>
    </message>
    <message>
        <source>shared offset %1</source>
        <translation>desplazamiento compartido %1</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), then %4 reads it (line %5) in the same barrier interval</source>
        <translation>%1 escribe %2 (línea %3) y luego %4 lo lee (línea %5) en el mismo intervalo entre barreras</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3) before %4 writes it (line %5) in the same barrier interval</source>
        <translation>%1 lee %2 (línea %3) antes de que %4 lo escriba (línea %5) en el mismo intervalo entre barreras</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), and %4 writes it too (line %5) in the same barrier interval</source>
        <translation>%1 escribe %2 (línea %3) y %4 también lo escribe (línea %5) en el mismo intervalo entre barreras</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3) before any thread of the block wrote it</source>
        <translation>%1 lee %2 (línea %3) antes de que ningún hilo del bloque lo escribiera</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), in no buffer of the launch</source>
        <translation>%1 escribe %2 (línea %3), fuera de los búferes del lanzamiento</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3), in no buffer of the launch</source>
        <translation>%1 lee %2 (línea %3), fuera de los búferes del lanzamiento</translation>
    </message>
    <message>
        <source>the barrier at line %1 was reached by warp %2 but not by warp(s) %3</source>
        <translation>la barrera de la línea %1 la alcanzó el warp %2 pero no el/los warp(s) %3</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>bloque %1</translation>
    </message>
    <message numerus="yes">
        <source>%n more like it</source>
        <translation>
            <numerusform>%n más como este</numerusform>
            <numerusform>%n más como este</numerusform>
        </translation>
    </message>
    <message>
        <source>No problems found in the traced blocks.</source>
        <translation>No se encontraron problemas en los bloques trazados.</translation>
    </message>
    <message>
        <source>Races were not looked for: this recording&apos;s barriers do not say where they fall among the accesses.</source>
        <translation>No se buscaron carreras: las barreras de esta grabación no indican dónde caen entre los accesos.</translation>
    </message>
    <message>
        <source>Problems found in the traced blocks: %1</source>
        <translation>Problemas encontrados en los bloques trazados: %1</translation>
    </message>
    <message>
        <source>Choose one to step to it; choose it again for the other access. Up/Down, Enter.</source>
        <translation>Elija uno para ir a él; elíjalo otra vez para el otro acceso. Arriba/Abajo, Intro.</translation>
    </message>
    <message>
        <source>%1 writes %2 (line %3), in no shared array of the block</source>
        <translation>%1 escribe %2 (línea %3), fuera de los arrays compartidos del bloque</translation>
    </message>
    <message>
        <source>%1 reads %2 (line %3), in no shared array of the block</source>
        <translation>%1 lee %2 (línea %3), fuera de los arrays compartidos del bloque</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV data (*.csv);;JSON data (*.json)</source>
        <translation>Imagen PNG (*.png);;Documento PDF (*.pdf);;Dibujo SVG (*.svg);;Datos CSV (*.csv);;Datos JSON (*.json)</translation>
    </message>
    <message>
        <source>%1: a chart is exported as .png, .pdf or .svg</source>
        <translation>%1: un gráfico se exporta como .png, .pdf o .svg</translation>
    </message>
    <message>
        <source>could not write %1</source>
        <translation>no se pudo escribir %1</translation>
    </message>
    <message>
        <source>could not open %1: %2</source>
        <translation>no se pudo abrir %1: %2</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>hilos</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>bloques</translation>
    </message>
    <message>
        <source>16-byte strips per thread</source>
        <translation>franjas de 16 bytes por hilo</translation>
    </message>
    <message>
        <source>elements per thread</source>
        <translation>elementos por hilo</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>elementos</translation>
    </message>
    <message>
        <source>traced blocks: &quot;%1&quot; is not a block id; give &quot;all&quot;, or ids such as 0, 1, 64, or leave the field empty for the default blocks</source>
        <translation>bloques trazados: &quot;%1&quot; no es un id de bloque; indique &quot;all&quot;, o ids como 0, 1, 64, o deje el campo vacío para los bloques predeterminados</translation>
    </message>
    <message>
        <source>could not save %1: %2</source>
        <translation>no se pudo guardar %1: %2</translation>
    </message>
    <message>
        <source>%1 is not a ThreadMap session: %2 bytes is larger than any session (%3)</source>
        <translation>%1 no es una sesión de ThreadMap: %2 bytes es más que cualquier sesión (%3)</translation>
    </message>
    <message>
        <source>%1 is not a readable ThreadMap session: %2</source>
        <translation>%1 no es una sesión legible de ThreadMap: %2</translation>
    </message>
    <message>
        <source>ThreadMap sessions (*.threadmap)</source>
        <translation>Sesiones de ThreadMap (*.threadmap)</translation>
    </message>
    <message>
        <source>%1 on %2 % of them</source>
        <translation>%1 en el %2 % de ellas</translation>
    </message>
    <message>
        <source>cannot save the learner profile: %1</source>
        <translation>no se puede guardar el perfil del estudiante: %1</translation>
    </message>
</context>
<context>
    <name>RecordingPanel</name>
    <message>
        <source>No recording open. Ctrl+R records the selected kernel&apos;s trace; Ctrl+O opens a .threadmap session.</source>
        <translation>No hay ninguna grabación abierta. Ctrl+R graba la traza del kernel seleccionado; Ctrl+O abre una sesión .threadmap.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; recorded on %2 (%3), %4, by %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; grabado en %2 (%3), %4, por %5</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 in %2: grid %3 × %4 blocks of %5 × %6 threads</source>
        <translation>&lt;br&gt;%1 en %2: malla de %3 × %4 bloques de %5 × %6 hilos</translation>
    </message>
    <message>
        <source>&lt;br&gt;Traced %1 of %2 blocks: %3 accesses in %4 warp-level requests, %5 barrier arrivals</source>
        <translation>&lt;br&gt;Trazados %1 de %2 bloques: %3 accesos en %4 solicitudes a nivel de warp, %5 llegadas a barreras</translation>
    </message>
    <message>
        <source>&lt;br&gt;Shared memory: %1 wavefronts for %2 requests (%3 bank conflicts)</source>
        <translation>&lt;br&gt;Memoria compartida: %1 frentes de onda para %2 solicitudes (%3 conflictos de banco)</translation>
    </message>
    <message>
        <source>&lt;br&gt;Global memory: %1 sectors for %2 requests (ideal %3)</source>
        <translation>&lt;br&gt;Memoria global: %1 sectores para %2 solicitudes (ideal %3)</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;Totals of the traced blocks only.&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;Totales solo de los bloques trazados.&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;Traced run %1. Model: %2</source>
        <translation>&lt;br&gt;Ejecución trazada %1. Modelo: %2</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verificada</translation>
    </message>
    <message>
        <source>NOT verified</source>
        <translation>NO verificada</translation>
    </message>
    <message>
        <source>warp width %1 assumed (the device does not report one); 32 banks of 4 bytes and 32-byte sectors, as on NVIDIA GPUs</source>
        <translation>ancho de warp %1 supuesto (el dispositivo no lo informa); 32 bancos de 4 bytes y sectores de 32 bytes, como en las GPU NVIDIA</translation>
    </message>
    <message>
        <source>warp width %1 read from the device (%2); 32 banks of 4 bytes and 32-byte sectors</source>
        <translation>ancho de warp %1 leído del dispositivo (%2); 32 bancos de 4 bytes y sectores de 32 bytes</translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message>
        <source>the worker sent a malformed report: %1</source>
        <translation>el ejecutor envió un informe mal formado: %1</translation>
    </message>
    <message>
        <source>sweep: %1 of %2 points of %3</source>
        <translation>barrido: %1 de %2 puntos de %3</translation>
    </message>
    <message>
        <source>Worker restarted (%1 so far): %2</source>
        <translation>Ejecutor reiniciado (%1 hasta ahora): %2</translation>
    </message>
    <message>
        <source>worker ready (pid %1)</source>
        <translation>ejecutor listo (pid %1)</translation>
    </message>
    <message numerus="yes">
        <source>%1; restarted %n time(s) this session</source>
        <translation>
            <numerusform>%1; reiniciado %n vez en esta sesión</numerusform>
            <numerusform>%1; reiniciado %n veces en esta sesión</numerusform>
        </translation>
    </message>
    <message>
        <source>running %1 …</source>
        <translation>ejecutando %1 …</translation>
    </message>
    <message>
        <source>cancelling the sweep after the current point …</source>
        <translation>cancelando el barrido después del punto actual …</translation>
    </message>
    <message>
        <source>a recording is already in progress</source>
        <translation>ya hay una grabación en curso</translation>
    </message>
    <message>
        <source>recording the trace of %1 …</source>
        <translation>grabando la traza de %1 …</translation>
    </message>
    <message>
        <source>sweep cancelled</source>
        <translation>barrido cancelado</translation>
    </message>
    <message>
        <source>sweep done</source>
        <translation>barrido terminado</translation>
    </message>
    <message>
        <source>the worker&apos;s record reply names no session file</source>
        <translation>la respuesta de grabación del ejecutor no indica ningún archivo de sesión</translation>
    </message>
    <message>
        <source>worker ready on %1: the kernels run there</source>
        <translation>worker listo en %1: los kernels se ejecutan allí</translation>
    </message>
    <message>
        <source>cannot write the recording here: %1</source>
        <translation>no se puede escribir la grabación aquí: %1</translation>
    </message>
    <message>
        <source>the recording from %1 arrived out of order</source>
        <translation>la grabación de %1 llegó desordenada</translation>
    </message>
    <message>
        <source>receiving the recording from %1: %2 of %3 kB</source>
        <translation>recibiendo la grabación de %1: %2 de %3 kB</translation>
    </message>
    <message>
        <source>the recording from %1 came incomplete: %2 of %3 bytes</source>
        <translation>la grabación de %1 llegó incompleta: %2 de %3 bytes</translation>
    </message>
</context>
<context>
    <name>ScheduleView</name>
    <message>
        <source>block (%1, %2): SM %3, %4-%5 us · %6 blocks, %7 SMs</source>
        <translation>bloque (%1, %2): SM %3, %4-%5 us · %6 bloques, %7 SMs</translation>
    </message>
    <message>
        <source>%1 blocks in the order they ran (no clock or SM id on this device)</source>
        <translation>%1 bloques en el orden en que se ejecutaron (sin reloj ni id de SM en este dispositivo)</translation>
    </message>
    <message>
        <source>Schedule: blocks on SMs over time</source>
        <translation>Planificación: bloques en los SM a lo largo del tiempo</translation>
    </message>
    <message>
        <source>No schedule was recorded.</source>
        <translation>No se grabó ninguna planificación.</translation>
    </message>
    <message>
        <source>SM %1</source>
        <translation>SM %1</translation>
    </message>
    <message>
        <source>order</source>
        <translation>orden</translation>
    </message>
    <message>
        <source>microseconds since the first block started (%globaltimer)</source>
        <translation>microsegundos desde que empezó el primer bloque (%globaltimer)</translation>
    </message>
    <message>
        <source>order in which blocks ran</source>
        <translation>orden en que se ejecutaron los bloques</translation>
    </message>
    <message>
        <source>block</source>
        <translation>bloque</translation>
    </message>
    <message>
        <source>traced block</source>
        <translation>bloque trazado</translation>
    </message>
    <message>
        <source>current block</source>
        <translation>bloque actual</translation>
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
        <translation>ninguna ejecución cronometrada en esta grabación</translation>
    </message>
    <message>
        <source>%1× the bandwidth</source>
        <translation>%1× el ancho de banda</translation>
    </message>
    <message>
        <source>%1: the kernel &apos;%2&apos; is not in this catalog</source>
        <translation>%1: el kernel &apos;%2&apos; no está en este catálogo</translation>
    </message>
    <message>
        <source>%1 and %2 are of different lessons (%3, %4): compare two variants of one family</source>
        <translation>%1 y %2 son de lecciones distintas (%3, %4): compare dos variantes de una misma familia</translation>
    </message>
    <message>
        <source>%1 (yours: %2)</source>
        <translation>%1 (su versión: %2)</translation>
    </message>
    <message>
        <source>%1 wavefronts per request</source>
        <translation>%1 frentes de onda por solicitud</translation>
    </message>
    <message>
        <source>%1 sectors per request</source>
        <translation>%1 sectores por solicitud</translation>
    </message>
    <message>
        <source>wavefronts per request</source>
        <translation>frentes de onda por solicitud</translation>
    </message>
    <message>
        <source>sectors per request</source>
        <translation>sectores por solicitud</translation>
    </message>
    <message>
        <source>wavefronts per %1 bytes</source>
        <translation>frentes de onda por %1 bytes</translation>
    </message>
    <message>
        <source>sectors per %1 bytes</source>
        <translation>sectores por %1 bytes</translation>
    </message>
    <message>
        <source>%1, %2: %3 → %4</source>
        <translation>%1, %2: %3 → %4</translation>
    </message>
    <message>
        <source> (bank conflicts → none)</source>
        <translation> (conflictos de banco → ninguno)</translation>
    </message>
    <message>
        <source> (no bank conflicts → conflicts)</source>
        <translation> (sin conflictos de banco → conflictos)</translation>
    </message>
    <message>
        <source> (uncoalesced → coalesced)</source>
        <translation> (no coalescida → coalescida)</translation>
    </message>
    <message>
        <source> (coalesced → uncoalesced)</source>
        <translation> (coalescida → no coalescida)</translation>
    </message>
    <message>
        <source>global load</source>
        <translation>lectura global</translation>
    </message>
    <message>
        <source>global store</source>
        <translation>escritura global</translation>
    </message>
    <message>
        <source>shared load</source>
        <translation>lectura compartida</translation>
    </message>
    <message>
        <source>shared store</source>
        <translation>escritura compartida</translation>
    </message>
    <message>
        <source>line %1 %2: %3 (ideal %4)</source>
        <translation>línea %1 %2: %3 (ideal %4)</translation>
    </message>
    <message>
        <source>no %1 here in %2</source>
        <translation>ninguna %1 aquí en %2</translation>
    </message>
    <message>
        <source>%1 traced no block %2</source>
        <translation>%1 no trazó el bloque %2</translation>
    </message>
    <message>
        <source>no block %1 warp %2 %3 in %4</source>
        <translation>ninguna %3 del bloque %1 warp %2 en %4</translation>
    </message>
    <message>
        <source>the same work at every corresponding site</source>
        <translation>el mismo trabajo en cada punto de acceso correspondiente</translation>
    </message>
    <message>
        <source>%1 only in %2</source>
        <translation>%1 solo en %2</translation>
    </message>
    <message numerus="yes">
        <source>%n wavefront(s) per request</source>
        <translation>
            <numerusform>%n frente de onda por solicitud</numerusform>
            <numerusform>%n frentes de onda por solicitud</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sector(s) per request</source>
        <translation>
            <numerusform>%n sector por solicitud</numerusform>
            <numerusform>%n sectores por solicitud</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>block %1 warp %2 did this %3 only %n time(s) in %4</source>
        <translation>
            <numerusform>bloque %1 warp %2 hizo esta %3 solo %n vez en %4</numerusform>
            <numerusform>bloque %1 warp %2 hizo esta %3 solo %n veces en %4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SiteModel</name>
    <message>
        <source>shared</source>
        <translation>compartida</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>line</source>
        <translation>línea</translation>
    </message>
    <message>
        <source>access</source>
        <translation>acceso</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>solicitudes</translation>
    </message>
    <message>
        <source>wavefronts</source>
        <translation>frentes de onda</translation>
    </message>
    <message>
        <source>sectors</source>
        <translation>sectores</translation>
    </message>
    <message>
        <source>ideal sectors</source>
        <translation>sectores ideales</translation>
    </message>
    <message>
        <source>per request</source>
        <translation>por solicitud</translation>
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
        <translation>aún no hay ejecuciones</translation>
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
%1: se esperaba %2, se obtuvo %3</translation>
    </message>
    <message numerus="yes">
        <source>✘ NOT verified: %1 of %Ln value(s) differ%2</source>
        <translation>
            <numerusform>✘ NO verificado: %1 de %Ln valor difiere%2</numerusform>
            <numerusform>✘ NO verificado: %1 de %Ln valores difieren%2</numerusform>
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
%Ln ejecución cronometrada en %3</numerusform>
            <numerusform>%1  %2
%Ln ejecuciones cronometradas en %3</numerusform>
        </translation>
    </message>
    <message>
        <source>
The working set fits in the last-level cache: this may be cache bandwidth.</source>
        <translation>
El conjunto de datos cabe en la caché de último nivel: esto puede ser ancho de banda de la caché.</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>rechazado</translation>
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
        <translation>✘ NO verificado</translation>
    </message>
    <message>
        <source>
Timed while other processes kept %1 of the machine&apos;s %2 cores busy: the times may be slower than on a quiet machine.</source>
        <translation>
Cronometrado mientras otros procesos mantenían ocupados %1 de los %2 núcleos de la máquina: los tiempos pueden ser más lentos que en una máquina tranquila.</translation>
    </message>
</context>
<context>
    <name>SweepChart</name>
    <message>
        <source>bandwidth (GB/s)</source>
        <translation>ancho de banda (GB/s)</translation>
    </message>
    <message>
        <source>Sweep: F6 runs every variant of the family over one parameter</source>
        <translation>Barrido: F6 ejecuta cada variante de la familia sobre un parámetro</translation>
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
        <translation>atómica</translation>
    </message>
    <message>
        <source>atomic %1</source>
        <extracomment>%1 the operation as the machine names it (add, cas, exch, min, ...; &quot;add 1&quot;: a count)</extracomment>
        <translation>atómica %1</translation>
    </message>
    <message>
        <source>Open a recording (.threadmap) or record a trace to see what the threads did.</source>
        <translation>Abra una grabación (.threadmap) o grabe una traza para ver lo que hicieron los hilos.</translation>
    </message>
    <message>
        <source> (%1 merged by the compiler into one %2-byte access)</source>
        <translation> (%1 unidos por el compilador en un solo acceso de %2 bytes)</translation>
    </message>
    <message>
        <source>store</source>
        <translation>escritura</translation>
    </message>
    <message>
        <source>load</source>
        <translation>lectura</translation>
    </message>
</context>
<context>
    <name>TraceViewsWidget</name>
    <message>
        <source>Open recording...</source>
        <translation>Abrir grabación...</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Malla</translation>
    </message>
    <message>
        <source>Banks</source>
        <translation>Bancos</translation>
    </message>
    <message>
        <source>Barrier</source>
        <translation>Barrera</translation>
    </message>
    <message>
        <source>Coalescing</source>
        <translation>Coalescencia</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Planificación</translation>
    </message>
    <message>
        <source>Open recording</source>
        <translation>Abrir grabación</translation>
    </message>
    <message>
        <source>ThreadMap recordings (*.threadmap)</source>
        <translation>Grabaciones de ThreadMap (*.threadmap)</translation>
    </message>
    <message>
        <source>%1 holds no trace: record one with `threadmap-cli record`.</source>
        <translation>%1 no contiene ninguna traza: grabe una con `threadmap-cli record`.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>No se puede abrir %1: %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 · %3 · traced %4 of %5 blocks</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; en %2 · %3 · trazados %4 de %5 bloques</translation>
    </message>
    <message>
        <source>No recording open. Open a .threadmap file, or record a trace.</source>
        <translation>No hay ninguna grabación abierta. Abra un archivo .threadmap o grabe una traza.</translation>
    </message>
</context>
<context>
    <name>WorkerClient</name>
    <message>
        <source>the worker %1 could not start: %2</source>
        <translation>el ejecutor %1 no pudo iniciarse: %2</translation>
    </message>
    <message>
        <source>the worker gave no answer for %1 s</source>
        <translation>el ejecutor no respondió durante %1 s</translation>
    </message>
    <message>
        <source>the worker sent a reply the GUI cannot read (%1): %2</source>
        <translation>el ejecutor envió una respuesta que la interfaz no puede leer (%1): %2</translation>
    </message>
    <message>
        <source>the worker stopped unexpectedly (%1)</source>
        <translation>el ejecutor se detuvo inesperadamente (%1)</translation>
    </message>
    <message>
        <source>the worker exited with code %1</source>
        <translation>el ejecutor terminó con el código %1</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>en %1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>ThreadMap: GPU teaching kernels run, verified and timed</source>
        <translation>ThreadMap: kernels didácticos de GPU ejecutados, verificados y cronometrados</translation>
    </message>
    <message>
        <source>N: N x N matrices and N*N elements to sum</source>
        <translation>N: matrices N x N y N*N elementos a sumar</translation>
    </message>
    <message>
        <source>timed repetitions per run</source>
        <translation>repeticiones cronometradas por ejecución</translation>
    </message>
    <message>
        <source>the threadmap-cli to run as the worker</source>
        <translation>el threadmap-cli que se ejecuta como ejecutor</translation>
    </message>
    <message>
        <source>kernel to select at start, e.g. transpose.shared</source>
        <translation>kernel que se selecciona al empezar, p. ej. transpose.shared</translation>
    </message>
    <message>
        <source>seconds without a reply before the worker is restarted</source>
        <translation>segundos sin respuesta antes de reiniciar el ejecutor</translation>
    </message>
    <message>
        <source>quit after MS milliseconds (to check that an installed copy starts)</source>
        <translation>salir tras MS milisegundos (para comprobar que una copia instalada arranca)</translation>
    </message>
    <message>
        <source>a session file to open, or two to compare side by side</source>
        <translation>un archivo de sesión para abrir, o dos para comparar lado a lado</translation>
    </message>
    <message>
        <source>%1 files given: open one session, or compare two</source>
        <translation>%1 archivos dados: abra una sesión, o compare dos</translation>
    </message>
    <message>
        <source>run the kernels on this GPU server, through ssh</source>
        <translation>ejecutar los kernels en este servidor GPU, a través de ssh</translation>
    </message>
    <message>
        <source>the ssh command line for --remote</source>
        <translation>la línea de órdenes de ssh para --remote</translation>
    </message>
</context>
</TS>
