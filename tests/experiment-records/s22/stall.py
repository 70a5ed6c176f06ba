# A busy core: a normal-priority hog shares core 1 with dossier (memory with pending jobs, copy of SRC) as
# another game's engine would. Our searches (go movetime 60) are timed from go to bestmove; the opponent's
# turn is a 60 ms sleep. Prints the distribution of elapsed times and the worst ones.
import subprocess,sys,time,shutil,os,statistics
binp,src,n=sys.argv[1],sys.argv[2],int(sys.argv[3])
hog=subprocess.Popen(['taskset','-c','1','sh','-c','while :; do :; done'])
d='/tmp/stallcopy'
memargs=['--no-memory']
if src!='none':
    shutil.rmtree(d,ignore_errors=True); shutil.copytree(src,d)
    try: os.remove(d+'/lock')
    except FileNotFoundError: pass
    memargs=['--memory',d]
env=dict(os.environ); env.update(dict(x.split('=',1) for x in os.environ.get('ENGINE_ENV','').split() if x))
p=subprocess.Popen(['taskset','-c','1',binp]+memargs+['--log-file','/tmp/stall.log','--log-level','info'],stdin=subprocess.PIPE,stdout=subprocess.PIPE,stderr=open('/tmp/stall.stderr','w'),text=True,bufsize=1,env=env)
import threading,signal
watch={'t':None}
def watcher():
    while True:
        time.sleep(0.01)
        t0=watch['t']
        if t0 and time.time()-t0>0.3:
            os.kill(p.pid, signal.SIGQUIT); return
threading.Thread(target=watcher,daemon=True).start()
def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
def until(pref):
    while True:
        l=p.stdout.readline()
        if not l: raise SystemExit('died')
        if l.startswith(pref): return l
send('uci'); until('uciok'); send('setoption name Hash value 16'); send('isready'); until('readyok')
el=[]; games=0
while len(el)<n:
    send('ucinewgame'); send('setoption name UCI_Opponent value none none computer toga2'); send('position startpos'); send('isready'); until('readyok')
    moves=[]
    for k in range(60):
        send('position startpos moves '+' '.join(moves))
        t=time.time(); watch['t']=t; send('go movetime 60')
        last=None
        while True:
            l=p.stdout.readline()
            if not l: raise SystemExit('died')
            if l.startswith('info') and ' time ' in l: last=(time.time()-t)*1000, l.strip()
            if l.startswith('bestmove'): break
        watch['t']=None
        e=(time.time()-t)*1000
        el.append(e)
        if e>100: print('stall %.0f ms; last info at %s'%(e, last and ('%.0f ms: %s'%(last[0], last[1][:90]))))
        bm=l.split()[1]
        if bm in ('(none)','0000'): break
        moves.append(bm)
        time.sleep(0.06)
        if len(el)>=n: break
    games+=1
send('quit'); p.wait(); hog.kill()
el.sort()
print(binp, len(el),'searches',games,'games; median %.0f p90 %.0f p99 %.0f max %.0f ms; over 100 ms: %d'%(statistics.median(el),el[int(.9*len(el))],el[int(.99*len(el))],el[-1],sum(1 for x in el if x>100)))
