<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>BankView</name>
    <message numerus="yes">
        <source>This step is a %1 %2; shared accesses: %n request(s), %3 wavefronts (ideal %4), %5 so far.</source>
        <translation>
            <numerusform>This step is a %1 %2; shared accesses: %n request, %3 wavefronts (ideal %4), %5 so far.</numerusform>
            <numerusform>This step is a %1 %2; shared accesses: %n requests, %3 wavefronts (ideal %4), %5 so far.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CoalescingView</name>
    <message numerus="yes">
        <source>%n sector(s) for this request, ideal %1</source>
        <translation>
            <numerusform>%n sector for this request, ideal %1</numerusform>
            <numerusform>%n sectors for this request, ideal %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExercisePanel</name>
    <message numerus="yes">
        <source>Goal met (%n attempt(s)).</source>
        <translation>
            <numerusform>Goal met (%n attempt).</numerusform>
            <numerusform>Goal met (%n attempts).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Attempted %n time(s); the goal is not met yet.</source>
        <translation>
            <numerusform>Attempted %n time; the goal is not met yet.</numerusform>
            <numerusform>Attempted %n times; the goal is not met yet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) in the trace</source>
        <translation>
            <numerusform>%n problem in the trace</numerusform>
            <numerusform>%n problems in the trace</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%1 on %2, %Ln traced block(s)</source>
        <translation>
            <numerusform>%1 on %2, %Ln traced block</numerusform>
            <numerusform>%1 on %2, %Ln traced blocks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pack %1 opened: %n kernel(s)</source>
        <translation>
            <numerusform>Pack %1 opened: %n kernel</numerusform>
            <numerusform>Pack %1 opened: %n kernels</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProblemsView</name>
    <message numerus="yes">
        <source>%n more like it</source>
        <translation>
            <numerusform>%n more like it</numerusform>
            <numerusform>%n more like it</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message numerus="yes">
        <source>%1; restarted %n time(s) this session</source>
        <translation>
            <numerusform>%1; restarted %n time this session</numerusform>
            <numerusform>%1; restarted %n times this session</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SideBySide</name>
    <message numerus="yes">
        <source>%n wavefront(s) per request</source>
        <translation>
            <numerusform>%n wavefront per request</numerusform>
            <numerusform>%n wavefronts per request</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sector(s) per request</source>
        <translation>
            <numerusform>%n sector per request</numerusform>
            <numerusform>%n sectors per request</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>block %1 warp %2 did this %3 only %n time(s) in %4</source>
        <translation>
            <numerusform>block %1 warp %2 did this %3 only once in %4</numerusform>
            <numerusform>block %1 warp %2 did this %3 only %n times in %4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StatusPanel</name>
    <message numerus="yes">
        <source>✔ verified: %Ln value(s)</source>
        <translation>
            <numerusform>✔ verified: %Ln value</numerusform>
            <numerusform>✔ verified: %Ln values</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>✘ NOT verified: %1 of %Ln value(s) differ%2</source>
        <translation>
            <numerusform>✘ NOT verified: %1 of %Ln value differs%2</numerusform>
            <numerusform>✘ NOT verified: %1 of %Ln values differ%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1  %2
%Ln timed run(s) on %3</source>
        <translation>
            <numerusform>%1  %2
%Ln timed run on %3</numerusform>
            <numerusform>%1  %2
%Ln timed runs on %3</numerusform>
        </translation>
    </message>
</context>
</TS>
